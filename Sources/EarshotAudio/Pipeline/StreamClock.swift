import Synchronization

/// A clock that runs on audio time: it advances only as frames are processed.
///
/// Replay drives the turn machine with it so timeouts fire at the same audio instant on every
/// run, however fast the file is processed.
public final class StreamClock: Clock, Sendable {
    public struct Instant: InstantProtocol, Sendable {
        /// Time since the start of the stream.
        public var offset: Duration

        public init(offset: Duration) { self.offset = offset }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let elapsedFrames = Atomic<Int>(0)

    public init() {}

    public var now: Instant { Instant(offset: .milliseconds(10 * elapsedFrames.load(ordering: .acquiring))) }
    public var minimumResolution: Duration { .milliseconds(10) }

    /// Moves the clock to the end of frame `index`.
    public func advance(toEndOfFrame index: Int) {
        elapsedFrames.store(index + 1, ordering: .releasing)
    }

    /// Audio time cannot be waited for from inside the stream that produces it: sleeping only
    /// checks cancellation, and callers poll `now` instead.
    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
    }
}
