import EarshotBase

/// The audio of one utterance as it is captured: 16 kHz mono signed 16-bit chunks, the first
/// holding the prefix padding, finished when the utterance ends.
///
/// Every chunk is kept until the utterance is dropped, so a transcription that failed can start
/// again from the beginning: each `makeAsyncIterator()` reads from the first chunk. The producer
/// (the capture pipeline) never waits: `append` and `finish` only take a short lock.
///
/// Replay runs in lockstep: after appending a chunk it awaits ``consumed(through:)`` so that
/// whatever the backend reports while decoding that chunk is stamped with its audio time.
///
/// The producer also marks where the person may have finished (``markPause()``, an eager end)
/// and where they went on after all (``markResumed()``), in the order it decides them, so a
/// backend reading the marks never ends the utterance at a pause the person already went on from.
public final class UtteranceAudio: AsyncSequence, Sendable {
    public typealias Element = [Int16]
    public typealias Failure = Never

    private struct State {
        var chunks: [[Int16]] = []
        var finished = false
        /// A copy of another utterance's audio so far (``snapshot()``).
        var isSnapshot = false
        /// Iterators waiting for the chunk at their position (or the end), by reader id.
        var readers: [(id: Int, position: Int, continuation: CheckedContinuation<[Int16]?, Never>)] = []
        var nextReaderID = 0
        /// Reader ids whose task was cancelled before they started waiting.
        var cancelledReaders: Set<Int> = []
        /// The furthest position any iterator has asked for: chunks before it were consumed.
        var requested = 0
        var consumptionWaiters: [(id: Int, position: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// Waiter ids whose task was cancelled before they started waiting.
        var cancelledWaiters: Set<Int> = []
        /// The chunk count at the latest pause, unless the person went on after it.
        var pause: Int?
        var markObserver: (@Sendable () -> Void)?
    }

    private let state = Locked(State())

    public init() {}

    /// An utterance whose audio is all at hand.
    public convenience init(chunks: [[Int16]]) {
        self.init()
        for chunk in chunks { append(chunk) }
        finish()
    }

    /// The utterance as it stands: every chunk appended so far, finished, to be transcribed on
    /// its own (an eager end's transcript) while this one goes on. A backend that learns from each
    /// utterance (pocketsphinx's cepstral mean) decodes a snapshot apart, learning nothing from
    /// it, so the utterance it belongs to is transcribed exactly as without it.
    public func snapshot() -> UtteranceAudio {
        let snapshot = UtteranceAudio()
        let chunks = state.withLock { $0.chunks }
        snapshot.state.withLock { state in
            state.chunks = chunks
            state.finished = true
            state.isSnapshot = true
        }
        return snapshot
    }

    /// The number of chunks there were when the person may have finished, speaking no more
    /// since; nil when they did not pause, or went on.
    public var pause: Int? { state.withLock { $0.pause } }

    /// The person may have finished here (an eager end): the utterance as it stands is to be
    /// transcribed to its end (``Transcriber/transcribeToPause(_:language:)``).
    public func markPause() {
        let observer = state.withLock { state in
            state.pause = state.chunks.count
            return state.markObserver
        }
        observer?()
    }

    /// The person went on after the latest pause: the utterance is one, to be transcribed whole.
    public func markResumed() {
        let observer = state.withLock { state in
            state.pause = nil
            return state.markObserver
        }
        observer?()
    }

    /// Calls `observer` after each ``markPause()`` and ``markResumed()``, on the thread that
    /// made the mark (the capture pipeline's): it must not wait. One observer at a time.
    public func observeMarks(_ observer: @escaping @Sendable () -> Void) {
        state.withLock { $0.markObserver = observer }
    }

    /// Whether this is a ``snapshot()`` of an utterance still going on.
    public var isSnapshot: Bool { state.withLock { $0.isSnapshot } }

    /// Adds the next chunk and wakes readers waiting for it.
    public func append(_ chunk: [Int16]) {
        let woken = state.withLock { state -> [CheckedContinuation<[Int16]?, Never>] in
            guard !state.finished else { return [] }
            let position = state.chunks.count
            state.chunks.append(chunk)
            let waiting = state.readers.filter { $0.position == position }.map(\.continuation)
            state.readers.removeAll { $0.position == position }
            return waiting
        }
        for reader in woken { reader.resume(returning: chunk) }
    }

    /// Marks the end of the utterance; readers past the last chunk see the end.
    public func finish() {
        let woken = state.withLock { state -> [CheckedContinuation<[Int16]?, Never>] in
            state.finished = true
            defer { state.readers.removeAll() }
            return state.readers.map(\.continuation)
        }
        for reader in woken { reader.resume(returning: nil) }
    }

    /// Number of chunks appended so far.
    public var chunkCount: Int { state.withLock { $0.chunks.count } }

    /// Number of samples appended so far.
    public var sampleCount: Int { state.withLock { $0.chunks.reduce(0) { $0 + $1.count } } }

    /// Every sample appended so far, in order.
    public var samples: [Int16] { state.withLock { Array($0.chunks.joined()) } }

    public var isFinished: Bool { state.withLock { $0.finished } }

    /// Nobody will read further (the transcription ended or failed): releases every waiter of
    /// ``consumed(through:)``.
    public func stopConsuming() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.requested = .max
            defer { state.consumptionWaiters.removeAll() }
            return state.consumptionWaiters.map(\.continuation)
        }
        for waiter in waiting { waiter.resume() }
    }

    /// Returns once a reader has finished with every chunk up to `count` (that is, has asked for
    /// the chunk after them, or for the end).
    public func consumed(through count: Int) async {
        let id = state.withLock { state in
            defer { state.nextReaderID += 1 }
            return state.nextReaderID
        }
        // A cancelled wait returns at once, so an utterance no transcription ever reads does not
        // keep its waiting task, and the task its audio, for the life of the process.
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if state.requested >= count || state.cancelledWaiters.remove(id) != nil { return true }
                    state.consumptionWaiters.append((id, count, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.consumptionWaiters.firstIndex(where: { $0.id == id }) else {
                    state.cancelledWaiters.insert(id)
                    return nil
                }
                return state.consumptionWaiters.remove(at: index).continuation
            }
            waiting?.resume()
        }
    }

    fileprivate func chunk(at position: Int) async -> [Int16]? {
        let satisfied = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard position > state.requested else { return [] }
            state.requested = position
            let ready = state.consumptionWaiters.filter { $0.position <= position }.map(\.continuation)
            state.consumptionWaiters.removeAll { $0.position <= position }
            return ready
        }
        for waiter in satisfied { waiter.resume() }
        let id = state.withLock { state in
            defer { state.nextReaderID += 1 }
            return state.nextReaderID
        }
        // A cancelled reader sees the end, so a transcription abandoned mid-utterance returns at once.
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[Int16]?, Never>) in
                let immediate = state.withLock { state -> [Int16]?? in
                    if position < state.chunks.count { return .some(state.chunks[position]) }
                    if state.finished || state.cancelledReaders.remove(id) != nil { return .some(nil) }
                    state.readers.append((id, position, continuation))
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiting = state.withLock { state -> CheckedContinuation<[Int16]?, Never>? in
                guard let index = state.readers.firstIndex(where: { $0.id == id }) else {
                    state.cancelledReaders.insert(id)
                    return nil
                }
                return state.readers.remove(at: index).continuation
            }
            waiting?.resume(returning: nil)
        }
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let audio: UtteranceAudio
        var position = 0

        public mutating func next() async -> [Int16]? {
            let chunk = await audio.chunk(at: position)
            if chunk != nil { position += 1 }
            return chunk
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(audio: self) }
}
