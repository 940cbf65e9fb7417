import EarshotServer
import ServiceLifecycle

/// Serves front ends until shutdown; the server removes its socket file as it stops.
struct SocketService: Service {
    let server: SocketServer
    /// Called once clients can connect.
    var onListening: @Sendable () -> Void = {}

    func run() async throws {
        try await cancelWhenGracefulShutdown { [server, onListening] in
            try await server.run(onListening: onListening)
        }
    }
}
