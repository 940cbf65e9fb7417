import EarshotServer
import ServiceLifecycle

/// Serves front ends until shutdown; the server removes its socket file as it stops.
struct SocketService: Service {
    let server: SocketServer

    func run() async throws {
        try await cancelWhenGracefulShutdown {
            try await server.run()
        }
    }
}
