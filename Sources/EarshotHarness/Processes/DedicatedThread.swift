import Foundation

/// Runs `body` on a thread of its own and awaits it, so a blocking call (starting a server,
/// waiting for a process) does not hold one of the few threads Swift concurrency shares among
/// all the tests running in parallel; holding them delays every other test's awaits.
public func onDedicatedThread<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Swift.Result { try body() }) }.start()
    }
}

/// `onDedicatedThread` for a body that cannot fail.
public func onDedicatedThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}
