/// flite and espeak-ng are each one per process, and the test targets share one process: a test
/// that watches an engine load and be released after its idle delay needs the engines to itself,
/// while other tests only use them. Users share the gate; such a test holds it alone. Waiters
/// enter in the order they came, so a test waiting to hold it alone is not starved by users.
public actor EngineGate {
    /// The embedded speech engines (flite, espeak-ng).
    public static let embeddedSpeech = EngineGate()

    private var users = 0
    private var heldAlone = false
    private var waiting: [(alone: Bool, continuation: CheckedContinuation<Void, Never>)] = []

    /// Runs `body` with the engines shared with other users.
    public nonisolated func sharing<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await run(alone: false, body)
    }

    /// Runs `body` with the engines to itself: no other user runs meanwhile.
    public nonisolated func alone<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await run(alone: true, body)
    }

    private nonisolated func run<T: Sendable>(alone: Bool, _ body: @Sendable () async throws -> T) async throws -> T {
        await enter(alone: alone)
        do {
            let result = try await body()
            await leave(alone: alone)
            return result
        } catch {
            await leave(alone: alone)
            throw error
        }
    }

    private func enter(alone: Bool) async {
        if waiting.isEmpty && canEnter(alone: alone) {
            admit(alone: alone)
            return
        }
        await withCheckedContinuation { waiting.append((alone, $0)) }
    }

    private func leave(alone: Bool) {
        if alone { heldAlone = false } else { users -= 1 }
        while let next = waiting.first, canEnter(alone: next.alone) {
            waiting.removeFirst()
            admit(alone: next.alone)
            next.continuation.resume()
        }
    }

    private func canEnter(alone: Bool) -> Bool {
        alone ? users == 0 && !heldAlone : !heldAlone
    }

    private func admit(alone: Bool) {
        if alone { heldAlone = true } else { users += 1 }
    }
}
