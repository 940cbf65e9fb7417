import EarshotBase

/// How long a Wyoming client waits.
public struct WyomingTimeouts: Equatable, Sendable {
    /// For the server to accept the connection.
    public var connect: Duration
    /// For each answer the server owes: its info, then, once the audio has ended, the transcript
    /// (or, when synthesizing, the next piece of audio).
    public var response: Duration

    public init(connect: Duration = .seconds(3), response: Duration = .seconds(15)) {
        self.connect = connect
        self.response = response
    }
}

/// When the server must have answered by, watched by a task of its own: a response that never
/// comes has to end the conversation even while it is blocked writing to a server that stopped
/// reading.
final class ResponseDeadline: Sendable {
    private struct State {
        var instant: ContinuousClock.Instant?
        var awaiting = ""
        var timeout = Duration.zero
        var expired = false
    }

    private let state = Locked(State())

    /// The server must answer within `timeout` from now; `awaiting` says with what, for the message.
    func arm(_ timeout: Duration, awaiting: String) {
        state.withLock { state in
            guard !state.expired else { return }
            state.instant = .now + timeout
            state.awaiting = awaiting
            state.timeout = timeout
        }
    }

    /// ``arm(_:awaiting:)`` unless already armed.
    func armIfIdle(_ timeout: Duration, awaiting: String) {
        let idle = state.withLock { $0.instant == nil }
        if idle { arm(timeout, awaiting: awaiting) }
    }

    func disarm() {
        state.withLock { $0.instant = nil }
    }

    /// The failure to report once the deadline has passed.
    var expiry: WyomingClientFailure? {
        state.withLock { $0.expired ? .responseTimedOut(awaiting: $0.awaiting, $0.timeout) : nil }
    }

    /// Waits until the deadline passes, then calls `onExpiry` once; returns early when cancelled.
    func watch(onExpiry: () -> Void) async {
        while !Task.isCancelled {
            let instant = state.withLock { $0.instant }
            guard let instant else {
                try? await Task.sleep(for: .milliseconds(50))
                continue
            }
            if ContinuousClock.now >= instant {
                let expired = state.withLock { state in
                    guard state.instant == instant else { return false }
                    state.expired = true
                    return true
                }
                if expired {
                    onExpiry()
                    return
                }
            } else {
                try? await Task.sleep(until: instant, tolerance: .milliseconds(5), clock: .continuous)
            }
        }
    }
}
