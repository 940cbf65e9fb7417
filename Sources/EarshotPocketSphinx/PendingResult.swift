import Synchronization

/// A result awaited by one task and settled once, by whichever comes first: the work itself or
/// the waiting task's cancellation. Later settlements are ignored.
final class PendingResult<Value: Sendable>: Sendable {
    private enum State {
        case unsettled
        case waiting(CheckedContinuation<Value, any Error>)
        case settled(Result<Value, any Error>)
        case delivered
    }

    private let state = Mutex(State.unsettled)

    func settle(_ result: Result<Value, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            switch state {
            case .unsettled:
                state = .settled(result)
                return nil
            case .waiting(let continuation):
                state = .delivered
                return continuation
            case .settled, .delivered:
                return nil
            }
        }
        waiter?.resume(with: result)
    }

    /// Waits for the result; call once.
    func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<Value, any Error>? in
                guard case .settled(let result) = state else {
                    state = .waiting(continuation)
                    return nil
                }
                state = .delivered
                return result
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
