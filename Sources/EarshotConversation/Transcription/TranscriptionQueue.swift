import EarshotBase
public import EarshotSpeech

/// Hands each utterance to a transcriber, in order, and keeps its audio until the final
/// transcript is in: when the backend is unreachable the utterance waits and is sent again
/// (from its first chunk) with backoff, while later utterances queue behind it, up to
/// `capacity`; past that the oldest is dropped, with a report saying so.
///
/// `begin`, `append`, `end` and `discard` are called from the capture pipeline's thread: they
/// never wait. Reports arrive on `report` from the queue's own task.
public final class TranscriptionQueue: Sendable {
    public struct Configuration: Sendable {
        public var language: String
        /// Utterances waiting (the one being transcribed included) before the oldest is dropped.
        public var capacity: Int
        public var firstRetryDelay: Duration
        public var maximumRetryDelay: Duration

        public init(
            language: String = "en-US", capacity: Int = 8,
            firstRetryDelay: Duration = .milliseconds(500), maximumRetryDelay: Duration = .seconds(8)
        ) {
            self.language = language
            self.capacity = capacity
            self.firstRetryDelay = firstRetryDelay
            self.maximumRetryDelay = maximumRetryDelay
        }
    }

    enum Command: Sendable {
        case begin(label: TurnLabel, audio: UtteranceAudio, language: String)
        case end(turn: Int)
        case discard(turn: Int)
        case transcribeToPause(turn: Int, audio: UtteranceAudio, language: String)
        case dropPauseTranscript(turn: Int)
    }

    public let transcriber: any Transcriber
    private let commands: AsyncStream<Command>.Continuation
    /// The utterances whose audio is still coming, by turn, with the label their reports carry.
    private let utterances = Locked<[Int: (audio: UtteranceAudio, label: TurnLabel)]>([:])
    /// The utterance that ended last, until the next one begins, and the turn going on with it.
    private let ended = Locked<(turn: Int, audio: UtteranceAudio, rejoinedBy: Int?)?>(nil)
    private let languageSetting: Locked<String>
    private let worker: Task<Void, Never>

    public init(
        transcriber: any Transcriber, configuration: Configuration = .init(),
        report: @escaping @Sendable (TranscriptionReport) -> Void
    ) {
        self.transcriber = transcriber
        let (stream, continuation) = AsyncStream<Command>.makeStream()
        commands = continuation
        languageSetting = Locked(configuration.language)
        let backlog = TranscriptionBacklog(transcriber: transcriber, configuration: configuration, report: report)
        worker = Task { await backlog.run(stream) }
    }

    deinit {
        commands.finish()
        worker.cancel()
    }

    /// Starts `turn`'s utterance with its first audio (the prefix padding and what followed);
    /// after ``rejoin(from:turn:)``, the earlier utterance's audio goes before it.
    public func begin(turn: Int, samples: [Int16]) {
        let audio = UtteranceAudio()
        let rejoined = ended.withLock { ended in
            defer { ended = nil }
            return ended.flatMap { $0.rejoinedBy == turn ? $0.audio.samples : nil } ?? []
        }
        if !rejoined.isEmpty { audio.append(rejoined) }
        audio.append(samples)
        let label = TurnLabel(turn, earlierSamples: rejoined.count)
        utterances.withLock { $0[turn] = (audio, label) }
        commands.yield(.begin(label: label, audio: audio, language: language))
    }

    /// The person went on soon after `earlier` ended: the utterance `turn` begins next is
    /// transcribed with `earlier`'s audio before it, as one (what `earlier`'s transcription
    /// reports from now on is the caller's to drop).
    public func rejoin(from earlier: Int, turn: Int) {
        ended.withLock { ended in
            guard ended?.turn == earlier else { return }
            ended?.rejoinedBy = turn
        }
    }

    /// The language utterances begun from now on are transcribed in (BCP 47).
    public var language: String {
        get { languageSetting.withLock { $0 } }
        set { languageSetting.withLock { $0 = newValue } }
    }

    public func append(turn: Int, samples: [Int16]) {
        utterances.withLock { $0[turn] }?.audio.append(samples)
    }

    public func end(turn: Int) {
        let audio = utterances.withLock { $0.removeValue(forKey: turn) }?.audio
        audio?.finish()
        ended.withLock { $0 = audio.map { (turn, $0, nil) } }
        commands.yield(.end(turn: turn))
    }

    /// `turn` may be over (an eager end): the utterance as it stands is transcribed to its end
    /// (``Transcriber/transcribeToPause(_:language:)``), and its text reported as `turn`'s final,
    /// while its audio goes on coming. Whichever final comes first, this one or the utterance's own
    /// once it ends, is reported; the other is dropped (a wait for this one when the utterance ends
    /// is abandoned).
    public func finalize(turn: Int) {
        guard let audio = utterances.withLock({ $0[turn] })?.audio else { return }
        audio.markPause()
        commands.yield(.transcribeToPause(turn: turn, audio: audio, language: language))
    }

    /// The person went on after `dropped` was finalised: its pause's final is dropped (a late one
    /// is stale), and the utterance goes on as `turn`, to be transcribed whole.
    public func continueUtterance(from dropped: Int, turn: Int) {
        utterances.withLock { utterances in
            guard let utterance = utterances.removeValue(forKey: dropped) else { return }
            // At once, so that what the transcriber reports from now on goes out as `turn`'s.
            utterance.label.turn = turn
            utterances[turn] = utterance
            utterance.audio.markResumed()
        }
        commands.yield(.dropPauseTranscript(turn: dropped))
    }

    /// Drops `turn`'s utterance; no report about it follows.
    public func discard(turn: Int) {
        // The audio is finished by the worker once the entry is gone, not here: a transcription
        // finishing on this end of the audio could otherwise still be reported.
        utterances.withLock { _ = $0.removeValue(forKey: turn) }
        commands.yield(.discard(turn: turn))
    }

    /// Stops transcribing; pending utterances are abandoned.
    public func close() {
        commands.finish()
        worker.cancel()
    }
}

/// What a ``TranscriptionQueue`` tells the pipeline about an utterance.
public enum TranscriptionReport: Equatable, Sendable {
    /// The running hypothesis while the person speaks (``PartialTranscript``), repeated as the
    /// transcriber takes more audio where it says how much it accounts for.
    case partial(turn: Int, text: String, sentenceEnd: Double? = nil, coveredSamples: Int? = nil, wordsEndSamples: Int? = nil)
    /// The final transcript (possibly late, after the backend came back).
    case final(turn: Int, text: String)
    /// The backend cannot take `turn` now; its audio is kept and tried again in `retryIn` seconds.
    case failed(turn: Int, message: String, retryIn: Double)
    /// `turn` will never be transcribed: the backlog was full, or the backend refused it.
    case dropped(turn: Int, message: String)
}

/// The queue's worker: utterances in order of arrival, the oldest transcribed first.
actor TranscriptionBacklog {
    private struct Entry {
        let label: TurnLabel
        var turn: Int { label.turn }
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
    private var current: (label: TurnLabel, task: Task<String, any Error>)?
    /// Transcripts of utterances still going on, to their pause (eager ends), awaited, by turn.
    private var pauseTranscripts: [Int: Task<Void, Never>] = [:]
    /// The latest turns whose final was reported: a turn's final goes out once, from its
    /// pause or from the utterance, whichever comes first.
    private var finalsReported: Set<Int> = []
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
        case .begin(let label, let audio, let language):
            entries.append(Entry(label: label, audio: audio, language: language))
            while entries.count > configuration.capacity {
                let dropped = entries.removeFirst()
                if current?.label.turn == dropped.turn { current?.task.cancel() }
                dropped.audio.finish()
                report(.dropped(
                    turn: dropped.turn,
                    message: "Turn \(dropped.turn) was dropped untranscribed: \(configuration.capacity) utterances were already waiting for the transcriber."
                ))
            }
            signal()
        case .end(let turn):
            // The utterance's own final is moments away now: a pause transcript not done yet
            // (a snapshot decoded apart) would only take a core from it (the final that comes
            // first is reported either way).
            pauseTranscripts.removeValue(forKey: turn)?.cancel()
            guard let index = entries.firstIndex(where: { $0.turn == turn }) else { return }
            entries[index].ended = true
            if let unavailable, !entries[index].failureReported {
                entries[index].failureReported = true
                report(.failed(turn: turn, message: unavailable.message, retryIn: secondsUntil(unavailable.retryAt)))
            }
        case .discard(let turn):
            let discarded = entries.filter { $0.turn == turn }
            entries.removeAll { $0.turn == turn }
            if current?.label.turn == turn { current?.task.cancel() }
            for entry in discarded { entry.audio.finish() }
            dropPauseTranscript(of: turn)
        case .transcribeToPause(let turn, let audio, let language):
            pauseTranscripts[turn]?.cancel()
            let transcriber = transcriber
            pauseTranscripts[turn] = Task {
                // The utterance's own transcription catches up first: the words the end of the
                // turn is judged by stay current (and a snapshot decoded apart takes no core from it).
                await Self.untilConsumed(audio, within: .milliseconds(300))
                guard !Task.isCancelled else { return }
                let text: String
                do {
                    text = try await transcriber.transcribeToPause(audio, language: language)
                } catch {
                    // A failed pause transcript leaves the final to the utterance's own transcription.
                    return
                }
                guard !Task.isCancelled else { return }
                pauseTranscripts[turn] = nil
                reportFinal(turn: turn, text: text)
            }
        case .dropPauseTranscript(let turn):
            dropPauseTranscript(of: turn)
        }
    }

    /// Returns once the chunks of `audio` so far were decoded, or after `limit` (a transcription
    /// waiting its turn or failing does not read them).
    private static func untilConsumed(_ audio: UtteranceAudio, within limit: Duration) async {
        let count = audio.chunkCount
        let (done, signal) = AsyncStream<Void>.makeStream()
        let reader = Task {
            await audio.consumed(through: count)
            signal.finish()
        }
        let timer = Task {
            try? await Task.sleep(for: limit)
            signal.finish()
        }
        for await _ in done {}
        timer.cancel()
        reader.cancel()
    }

    /// Abandons the pause transcript of `turn`, and any final for it that is still to come.
    private func dropPauseTranscript(of turn: Int) {
        pauseTranscripts.removeValue(forKey: turn)?.cancel()
        finalsReported.insert(turn)
    }

    /// Reports `turn`'s final unless one was reported already.
    private func reportFinal(turn: Int, text: String) {
        guard finalsReported.insert(turn).inserted else { return }
        // Turns only grow: the latest few are enough to tell which were reported.
        finalsReported = finalsReported.filter { $0 > turn - 64 }
        report(.final(turn: turn, text: text))
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
        let label = head.label
        let transcriber = transcriber, language = head.language, report = report
        let task = Task {
            try await transcriber.transcribe(head.audio, language: language) {
                // Counted from the utterance's own audio, after an earlier one it goes on from.
                let earlier = label.earlierSamples
                report(.partial(
                    turn: label.turn, text: $0.text, sentenceEnd: $0.sentenceEnd,
                    coveredSamples: $0.coveredSamples.map { max(0, $0 - earlier) },
                    wordsEndSamples: $0.wordsEndSamples.map { max(0, $0 - earlier) }
                ))
            }
        }
        current = (label, task)
        let outcome = await task.result
        current = nil
        // A discarded or dropped utterance is gone from `entries`; its outcome does not matter.
        guard let index = entries.firstIndex(where: { $0.label === label }) else { return }
        let turn = label.turn
        switch outcome {
        case .success(let text):
            entries.remove(at: index)
            unavailable = nil
            retryDelay = configuration.firstRetryDelay
            reportFinal(turn: turn, text: text)
        case .failure(let error as TranscriptionError) where error.isRetryable:
            await backOff(after: error, index: index)
        case .failure(let error):
            entries.remove(at: index)
            let reason = (error as? TranscriptionError)?.message ?? "\(error)"
            report(.dropped(turn: turn, message: "Turn \(turn) could not be transcribed: \(reason)"))
        }
    }

    private func backOff(after error: TranscriptionError, index: Int) async {
        // The server's own Retry-After wins over a shorter backoff; a longer one it asked for is kept too.
        let delay = max(retryDelay, error.retryAfter ?? .zero)
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

/// The turn an utterance is transcribed as: the next one once the person goes on after an
/// eager end, read by its transcription's reports as they go out.
final class TurnLabel: Sendable {
    private let value: Locked<Int>
    /// Samples of an earlier utterance the audio begins with (``TranscriptionQueue/rejoin(from:turn:)``).
    let earlierSamples: Int

    init(_ turn: Int, earlierSamples: Int = 0) {
        value = Locked(turn)
        self.earlierSamples = earlierSamples
    }

    var turn: Int {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
