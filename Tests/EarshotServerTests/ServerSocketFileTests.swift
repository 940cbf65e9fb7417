import EarshotProtocol
import EarshotServer
import Glibc
import Testing

@Suite struct ServerSocketFileTests {
    @Test func createsAPrivateDirectoryAndSocket() async throws {
        try await ServerHarness.withServer { _, path in
            let directory = String(path[..<path.lastIndex(of: "/")!])
            let directoryMode = try #require(ServerUnixSocket.mode(of: directory))
            #expect(directoryMode.isDirectory)
            #expect(directoryMode.permissions == 0o700)
            let socketMode = try #require(ServerUnixSocket.mode(of: path))
            #expect(socketMode.isSocket)
            #expect(socketMode.permissions == 0o600)
        }
    }

    @Test func leavesAnExistingDirectoryAlone() async throws {
        let directory = try ServerHarness.makeDirectory()
        defer { ServerHarness.cleanUp(directory) }
        chmod(directory, 0o755)
        let server = SocketServer(configuration: .init(path: directory + "/earshot.sock"), handler: TestTurnHandler())
        try await ServerHarness.run(server) {
            #expect(ServerUnixSocket.mode(of: directory)?.permissions == 0o755)
            #expect(ServerUnixSocket.mode(of: directory + "/earshot.sock")?.permissions == 0o600)
        }
    }

    @Test func removesTheSocketOnShutdown() async throws {
        let directory = try ServerHarness.makeDirectory()
        defer { ServerHarness.cleanUp(directory) }
        let path = directory + "/earshot/earshot.sock"
        let server = SocketServer(configuration: .init(path: path), handler: TestTurnHandler())
        let client = try await ServerHarness.run(server) {
            let client = try SocketTestClient(path: path)
            #expect(try await client.request(#"{"id":1,"cmd":"status"}"#)["ok"] == true)
            return ClientBox(client)
        }
        #expect(ServerUnixSocket.mode(of: path) == nil)
        // Open connections are closed too.
        #expect(try await client.value.waitUntilClosedByServer(timeout: .seconds(2)))
    }

    @Test func replacesAStaleSocket() async throws {
        let directory = try ServerHarness.makeDirectory()
        defer { ServerHarness.cleanUp(directory) }
        let path = directory + "/earshot.sock"
        try ServerUnixSocket.makeStale(path)
        #expect(ServerUnixSocket.mode(of: path)?.isSocket == true)
        let server = SocketServer(configuration: .init(path: path), handler: TestTurnHandler())
        try await ServerHarness.run(server) {
            let client = try SocketTestClient(path: path)
            #expect(try await client.request(#"{"id":1,"cmd":"status"}"#)["ok"] == true)
        }
    }

    @Test func refusesToStartWhileAnotherServerRuns() async throws {
        try await ServerHarness.withServer { _, path in
            let second = SocketServer(configuration: .init(path: path), handler: TestTurnHandler())
            await #expect(throws: SocketServerError.alreadyRunning(path: path)) { try await second.run() }
            let client = try SocketTestClient(path: path)
            #expect(try await client.request(#"{"id":1,"cmd":"status"}"#)["ok"] == true)
        }
    }

    @Test func refusesToStartWhenSomeoneElseAnswersOnThePath() async throws {
        let directory = try ServerHarness.makeDirectory()
        defer { ServerHarness.cleanUp(directory) }
        let path = directory + "/earshot.sock"
        let listener = try ServerUnixSocket.bind(path, listen: true)
        defer { close(listener) }
        let server = SocketServer(configuration: .init(path: path), handler: TestTurnHandler())
        await #expect(throws: SocketServerError.alreadyRunning(path: path)) { try await server.run() }
        #expect(ServerUnixSocket.mode(of: path)?.isSocket == true)
        let error = SocketServerError.alreadyRunning(path: path)
        #expect(error.description.contains("already running on \(path)"))
    }

    @Test func refusesToReplaceSomethingThatIsNotASocket() async throws {
        let directory = try ServerHarness.makeDirectory()
        defer { ServerHarness.cleanUp(directory) }
        let path = directory + "/earshot.sock"
        let file = open(path, O_CREAT | O_WRONLY, 0o644)
        close(file)
        let server = SocketServer(configuration: .init(path: path), handler: TestTurnHandler())
        await #expect(throws: SocketServerError.notASocket(path: path)) { try await server.run() }
        #expect(ServerUnixSocket.mode(of: path)?.isSocket == false)
    }

    @Test func servesASocketItWasHanded() async throws {
        let directory = try ServerHarness.makeDirectory()
        defer { ServerHarness.cleanUp(directory) }
        let path = directory + "/activated.sock"
        let descriptor = try ServerUnixSocket.bind(path, listen: true)
        let server = SocketServer(configuration: .init(endpoint: .listeningDescriptor(descriptor)), handler: TestTurnHandler())
        try await ServerHarness.run(server) {
            let client = try SocketTestClient(path: path)
            #expect(try await client.request(#"{"id":1,"cmd":"status"}"#)["ok"] == true)
        }
        // Whoever made the socket (systemd) removes its file.
        #expect(ServerUnixSocket.mode(of: path)?.isSocket == true)
    }

    @Test func runsOnlyOnce() async throws {
        try await ServerHarness.withServer { server, _ in
            await #expect(throws: SocketServerError.alreadyStarted) { try await server.run() }
        }
    }
}

/// Carries a client out of a closure whose result must be `Sendable`; only one task uses it.
struct ClientBox: @unchecked Sendable {
    let value: SocketTestClient

    init(_ value: SocketTestClient) {
        self.value = value
    }
}
