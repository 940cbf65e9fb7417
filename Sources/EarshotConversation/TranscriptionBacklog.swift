import EarshotSpeech

/// The queue's worker: utterances in order of arrival, the oldest transcribed first.
actor TranscriptionBacklog {
    private struct Entry {
        let turn: Int
        let audio: UtteranceAudio
        let language: String
        var ended = false
        /// A failure of this utterance has been reported (once per utterance is enough).
        var failureReported = false
    }

    private let transcriber: any Transcriber
    private let configuration: TranscriptionQueue.Configuration
    private let report: @Sendable (TranscriptionReport) -> Void
    private var entries: [Entry] = []
    private var current: (turn: Int, task: Task<String, any Error>)?
    private var retryDelay: Duration
    /// The backend failed and has not succeeded since: utterances that end are reported at once.
    private var unavailable: (message: String, retryAt: ContinuousClock.Instant)?
    private var wake: CheckedContinuation<Void, Never>?

    init(transcriber: any Transcriber, configuration: TranscriptionQueue.Configuration, report: @escaping @Sendable (TranscriptionReport) -> Void) {
        self.transcriber = transcriber
        self.configuration = configuration
        self.report = report
        self.retryDelay = configuration.firstRetryDelay
    }

    func run(_ commands: AsyncStream<TranscriptionQueue.Command>) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.transcribeForever() }
            for await command in commands { handle(command) }
            group.cancelAll()
            current?.task.cancel()
            signal()
        }
    }

    private func handle(_ command: TranscriptionQueue.Command) {
        switch command {
        case .begin(let turn, let audio, let language):
            entries.append(Entry(turn: turn, audio: audio, language: language))
            while entries.count > configuration.capacity {
                let dropped = entries.removeFirst()
                if current?.turn == dropped.turn { current?.task.cancel() }
                dropped.audio.finish()
                report(.dropped(
                    turn: dropped.turn,
                    message: "Turn \(dropped.turn) was dropped untranscribed: \(configuration.capacity) utterances were already waiting for the transcriber."
                ))
            }
            signal()
        case .end(let turn):
            guard let index = entries.firstIndex(where: { $0.turn == turn }) else { return }
            entries[index].ended = true
            if let unavailable, !entries[index].failureReported {
                entries[index].failureReported = true
                report(.failed(turn: turn, message: unavailable.message, retryIn: secondsUntil(unavailable.retryAt)))
            }
        case .discard(let turn):
            let discarded = entries.filter { $0.turn == turn }
            entries.removeAll { $0.turn == turn }
            if current?.turn == turn { current?.task.cancel() }
            for entry in discarded { entry.audio.finish() }
        }
    }

    private func transcribeForever() async {
        while !Task.isCancelled {
            guard let head = entries.first else {
                await waitForWork()
                continue
            }
            await transcribe(head)
        }
    }

    private func transcribe(_ head: Entry) async {
        let turn = head.turn
        let transcriber = transcriber, language = head.language, report = report
        let task = Task {
            try await transcriber.transcribe(head.audio, language: language) { report(.partial(turn: turn, text: $0)) }
        }
        current = (turn, task)
        let outcome = await task.result
        current = nil
        // A discarded or dropped utterance is gone from `entries`; its outcome does not matter.
        guard let index = entries.firstIndex(where: { $0.turn == turn }) else { return }
        switch outcome {
        case .success(let text):
            entries.remove(at: index)
            unavailable = nil
            retryDelay = configuration.firstRetryDelay
            report(.final(turn: turn, text: text))
        case .failure(let error as TranscriptionError) where error.isRetryable:
            await backOff(after: error, index: index)
        case .failure(let error):
            entries.remove(at: index)
            let reason = (error as? TranscriptionError)?.message ?? "\(error)"
            report(.dropped(turn: turn, message: "Turn \(turn) could not be transcribed: \(reason)"))
        }
    }

    private func backOff(after error: TranscriptionError, index: Int) async {
        let delay = retryDelay
        retryDelay = min(retryDelay * 2, configuration.maximumRetryDelay)
        let message = "\(error.message) What you said is kept and will be transcribed when it is back."
        unavailable = (message, ContinuousClock.now.advanced(by: delay))
        for position in entries.indices where entries[position].ended && !entries[position].failureReported {
            entries[position].failureReported = true
            report(.failed(turn: entries[position].turn, message: message, retryIn: delay.seconds))
        }
        try? await Task.sleep(for: delay)
    }

    private func waitForWork() async {
        await withCheckedContinuation { wake = $0 }
    }

    private func signal() {
        wake?.resume()
        wake = nil
    }

    private func secondsUntil(_ instant: ContinuousClock.Instant) -> Double {
        max(0, (instant - ContinuousClock.now).seconds)
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
