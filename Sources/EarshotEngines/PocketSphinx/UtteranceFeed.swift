import EarshotSpeech

/// Hands an utterance's audio, one chunk at a time, from the task that reads it to the thread
/// that decodes it.
///
/// The two run in lockstep: ``send(_:)`` returns once the decoder has finished with the chunk
/// (when it asks for the next one), so the reader asks ``UtteranceAudio`` for a chunk only after
/// the one before it was decoded, and whatever the decoder reported meanwhile belongs to it.
///
/// The audio's pause marks reach the decoder in order with its chunks: `pause` once it has had
/// every chunk up to the latest pause (it ends its decode there), `resume` once the person went
/// on after the pause it ended at (it decodes the utterance again from its start). Whoever waits
/// for a pause's transcript (``transcript(atPause:)``) gets it as soon as the decoder has it.
final class UtteranceFeed: @unchecked Sendable {
    // @unchecked: every stored property is read and written only with `condition` locked.
    enum Next: Equatable {
        case samples([Int16])
        /// The decoder has every chunk up to the audio's pause (at that chunk count): the turn may be over.
        case pause(at: Int)
        /// The person went on after the pause the decoder ended at.
        case resume
        case ended
        case cancelled
    }

    private let condition = ThreadCondition()
    private var pending: [Int16]?
    /// The sender of the chunk being decoded (or waiting to be), resumed when it is done with.
    private var sender: CheckedContinuation<Bool, Never>?
    private var ended = false
    private var closed = false
    /// The audio being fed, read for its pause marks.
    private var audio: UtteranceAudio?
    /// Chunks handed to the decoder.
    private var delivered = 0
    /// The pause (its chunk count) the decoder ended its decode at, until the person goes on.
    private var pausedAt: Int?
    /// The transcript at `pausedAt`, or of the whole utterance once it is over.
    private var transcript: (pause: Int?, text: String)?
    private var transcriptWaiters: [(pause: Int, result: PendingResult<String>)] = []

    /// Reads `audio` into the feed until it ends or the feed is closed.
    func pump(_ audio: UtteranceAudio) async {
        condition.withLock { self.audio = audio }
        audio.observeMarks { [weak self] in self?.marksChanged() }
        for await chunk in audio {
            guard await send(chunk) else { return }
        }
        end()
    }

    /// Offers a chunk and waits until the decoder is done with it; false if the feed closed.
    func send(_ samples: [Int16]) async -> Bool {
        await withCheckedContinuation { continuation in
            let accepted = condition.withLock {
                guard !closed, !ended else { return false }
                pending = samples
                sender = continuation
                condition.signal()
                return true
            }
            if !accepted { continuation.resume(returning: false) }
        }
    }

    /// No more audio: the utterance is over.
    func end() {
        condition.withLock {
            ended = true
            condition.signal()
        }
    }

    /// Stops the feed for good, whether the utterance was abandoned or decoding failed: the
    /// decoder sees `.cancelled`, the sender `false`, whoever waits for a pause's transcript a
    /// cancellation.
    func close() {
        let (waiting, transcriptWaiters) = condition.withLock {
            closed = true
            pending = nil
            condition.signal()
            defer {
                sender = nil
                self.transcriptWaiters = []
            }
            return (sender, self.transcriptWaiters)
        }
        waiting?.resume(returning: false)
        for waiter in transcriptWaiters { waiter.result.settle(.failure(CancellationError())) }
    }

    /// The transcript of the utterance as it stands at the pause where it had `pause` chunks,
    /// once the decoder has ended there (or the whole utterance's, if it ended first). Throws
    /// a cancellation if the person went on before the decoder got there, or the feed closed.
    func transcript(atPause pause: Int) async throws -> String {
        let result = PendingResult<String>()
        let ready = condition.withLock { () -> Result<String, any Error>? in
            if closed || audio.map({ $0.pause != pause }) == true { return .failure(CancellationError()) }
            if let transcript, transcript.pause == nil || transcript.pause == pause { return .success(transcript.text) }
            transcriptWaiters.append((pause, result))
            return nil
        }
        if let ready { result.settle(ready) }
        return try await withTaskCancellationHandler {
            try await result.value()
        } onCancel: {
            result.settle(.failure(CancellationError()))
        }
    }

    /// Called by the decoding thread once it has the transcript at the pause it ended at, or
    /// (`pause` nil) of the whole utterance.
    func transcribed(_ text: String, atPause pause: Int?) {
        let waiting = condition.withLock {
            transcript = (pause, text)
            let waiting = transcriptWaiters.filter { pause == nil || $0.pause == pause }
            transcriptWaiters.removeAll { pause == nil || $0.pause == pause }
            return waiting
        }
        for waiter in waiting { waiter.result.settle(.success(text)) }
    }

    /// A pause was marked or the person went on: the decoder may have to act, and a wait for
    /// the transcript at a pause the person went on from is over.
    private func marksChanged() {
        let abandoned = condition.withLock {
            let pause = audio?.pause
            let abandoned = transcriptWaiters.filter { $0.pause != pause }
            transcriptWaiters.removeAll { $0.pause != pause }
            condition.signal()
            return abandoned
        }
        for waiter in abandoned { waiter.result.settle(.failure(CancellationError())) }
    }

    var isClosed: Bool { condition.withLock { closed } }

    /// Called by the decoding thread: finishes with the previous chunk and waits for the next,
    /// the end, or closing.
    func next() -> Next {
        let finished = condition.withLock { () -> CheckedContinuation<Bool, Never>? in
            // A chunk already taken (none pending) is done with now.
            guard pending == nil else { return nil }
            defer { sender = nil }
            return sender
        }
        finished?.resume(returning: true)
        return condition.withLock {
            while true {
                if closed { return .cancelled }
                let pause = audio?.pause
                if let pausedAt, pause != pausedAt {
                    self.pausedAt = nil
                    transcript = nil
                    return .resume
                }
                if pausedAt == nil, let pause, delivered >= pause {
                    pausedAt = pause
                    return .pause(at: pause)
                }
                if let samples = pending {
                    pending = nil
                    delivered += 1
                    return .samples(samples)
                }
                if ended { return .ended }
                condition.wait()
            }
        }
    }
}
