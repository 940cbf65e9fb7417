import EarshotProtocol
import EarshotServer
import Foundation

/// Runs a `SocketServer` on a fresh socket path for the length of a test.
enum ServerHarness {
    struct ServerDidNotStart: Error {}

    /// A new empty directory under /tmp (short, for `sun_path`), removed by `cleanUp`.
    static func makeDirectory() throws -> String {
        let directory = "/tmp/earshot-server-test-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        return directory
    }

    static func cleanUp(_ directory: String) {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Starts a server on `<fresh directory>/earshot/earshot.sock`, runs `body` once it listens,
    /// then cancels the server and waits until it has stopped.
    @discardableResult
    static func withServer<Result: Sendable>(
        handler: some CommandHandler = TestTurnHandler(),
        configure: (inout SocketServer.Configuration) -> Void = { _ in },
        _ body: (SocketServer, String) async throws -> Result
    ) async throws -> Result {
        let directory = try makeDirectory()
        defer { cleanUp(directory) }
        var configuration = SocketServer.Configuration(path: directory + "/earshot/earshot.sock")
        configure(&configuration)
        let server = SocketServer(configuration: configuration, handler: handler)
        return try await run(server) { try await body(server, directory + "/earshot/earshot.sock") }
    }

    /// Runs `server` until `body` returns, then cancels it and waits for it to stop.
    @discardableResult
    static func run<Result: Sendable>(
        _ server: SocketServer,
        _ body: () async throws -> Result
    ) async throws -> Result {
        let (listening, listener) = AsyncStream.makeStream(of: Void.self)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { listener.finish() }
                try await server.run(onListening: { listener.yield() })
            }
            var iterator = listening.makeAsyncIterator()
            guard await iterator.next() != nil else {
                try await group.next()
                throw ServerDidNotStart()
            }
            let result = try await body()
            group.cancelAll()
            try await group.waitForAll()
            return result
        }
    }
}
