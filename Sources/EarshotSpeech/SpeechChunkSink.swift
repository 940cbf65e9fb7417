import Synchronization

/// Where an engine's audio goes: the continuation of the stream a caller iterates, plus the flag
/// that tells the engine to stop once nobody listens any more. Shared by the embedded engines.
public final class SpeechChunkSink: Sendable {
    private let continuation: AsyncThrowingStream<SpeechChunk, any Error>.Continuation
    private let stopped = Atomic(false)

    /// A stream and the sink that feeds it; ending iteration early stops the sink.
    public static func makeStream() -> (AsyncThrowingStream<SpeechChunk, any Error>, SpeechChunkSink) {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SpeechChunk.self)
        let sink = SpeechChunkSink(continuation: continuation)
        continuation.onTermination = { [weak sink] _ in sink?.stop() }
        return (stream, sink)
    }

    private init(continuation: AsyncThrowingStream<SpeechChunk, any Error>.Continuation) {
        self.continuation = continuation
    }

    public var isStopped: Bool { stopped.load(ordering: .relaxed) }

    public func stop() { stopped.store(true, ordering: .relaxed) }

    /// Passes on a copy of `samples`; false once the consumer has gone and synthesis should stop.
    public func yield(_ samples: UnsafeBufferPointer<Int16>, sampleRate: Int) -> Bool {
        guard !isStopped else { return false }
        guard !samples.isEmpty else { return true }
        if case .terminated = continuation.yield(SpeechChunk(sampleRate: sampleRate, samples: Array(samples))) {
            stop()
            return false
        }
        return true
    }

    public func finish(throwing error: (any Error)? = nil) {
        continuation.finish(throwing: error)
    }
}
