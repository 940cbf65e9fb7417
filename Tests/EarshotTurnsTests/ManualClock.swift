import Synchronization

/// A clock that moves only when a test advances it. A class, so the copy a `TurnMachine`
/// holds sees the same time as the test.
final class ManualClock: Clock, Sendable {
    struct Instant: InstantProtocol, CustomStringConvertible {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        var description: String {
            "t+\(offset)"
        }
    }

    private let current = Mutex(Instant(offset: .zero))

    var now: Instant {
        current.withLock { $0 }
    }

    var minimumResolution: Duration {
        .nanoseconds(1)
    }

    func advance(by duration: Duration) {
        current.withLock { $0 = $0.advanced(by: duration) }
    }

    func advance(to instant: Instant) {
        current.withLock { $0 = max($0, instant) }
    }

    /// Nothing under test sleeps on this clock; yielding until a test advances it is enough.
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        while now < deadline {
            try Task.checkCancellation()
            await Task.yield()
        }
    }
}
