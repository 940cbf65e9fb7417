import EarshotSpeech

/// Hands an utterance's audio, one chunk at a time, from the task that reads it to the thread
/// that decodes it.
///
/// The two run in lockstep: ``send(_:)`` returns once the decoder has finished with the chunk
/// (when it asks for the next one), so the reader asks ``UtteranceAudio`` for a chunk only after
/// the one before it was decoded, and whatever the decoder reported meanwhile belongs to it.
final class UtteranceFeed: @unchecked Sendable {
    // @unchecked: every stored property is read and written only with `condition` locked.
    enum Next {
        case samples([Int16])
        case ended
        case cancelled
    }

    private let condition = ThreadCondition()
    private var pending: [Int16]?
    /// The sender of the chunk being decoded (or waiting to be), resumed when it is done with.
    private var sender: CheckedContinuation<Bool, Never>?
    private var ended = false
    private var closed = false

    /// Reads `audio` into the feed until it ends or the feed is closed.
    func pump(_ audio: UtteranceAudio) async {
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
    /// decoder sees `.cancelled`, the sender `false`.
    func close() {
        let waiting = condition.withLock {
            closed = true
            pending = nil
            condition.signal()
            defer { sender = nil }
            return sender
        }
        waiting?.resume(returning: false)
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
            while !closed, pending == nil, !ended { condition.wait() }
            if closed { return .cancelled }
            if let samples = pending {
                pending = nil
                return .samples(samples)
            }
            return .ended
        }
    }
}
