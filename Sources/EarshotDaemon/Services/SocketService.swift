import EarshotBase
import EarshotProtocol
import EarshotServer
import Logging
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

/// Where the daemon serves front ends: the socket systemd passed (socket activation), or else
/// the socket file at the configured path.
struct SocketActivation: Equatable {
    var endpoint: SocketServer.Configuration.Endpoint
    /// The socket's path, for logs and the status line.
    var path: String

    /// Takes the socket systemd passed, if any: exactly one listening Unix stream socket, served
    /// as it is (no file is created or removed). Anything else passed is a mistake in the socket
    /// unit, refused with a message saying so.
    static func choose(configuredPath: String, logger: Logger) throws -> SocketActivation {
        let descriptors: [Int32]
        do {
            descriptors = try ServiceManager.passedDescriptors()
        } catch {
            throw DaemonStartError(message: "Cannot read the sockets systemd passed (LISTEN_FDS): \(error).")
        }
        guard let descriptor = descriptors.first else {
            return SocketActivation(endpoint: .path(configuredPath), path: configuredPath)
        }
        guard descriptors.count == 1 else {
            throw DaemonStartError(message: """
                systemd passed \(descriptors.count) sockets, but earshotd serves exactly one: give earshotd.socket \
                a single ListenStream= (e.g. ListenStream=%t/earshot/earshot.sock).
                """)
        }
        let isListeningUnixStream: Bool
        do {
            isListeningUnixStream = try ServiceManager.isListeningUnixStreamSocket(descriptor)
        } catch {
            throw DaemonStartError(message: "Cannot inspect the socket systemd passed (descriptor \(descriptor)): \(error).")
        }
        guard isListeningUnixStream else {
            throw DaemonStartError(message: """
                The socket systemd passed (descriptor \(descriptor)) is not a listening Unix stream socket: \
                earshotd.socket needs ListenStream=%t/earshot/earshot.sock (and no Accept=yes).
                """)
        }
        let path = ServiceManager.boundPath(of: descriptor) ?? "descriptor \(descriptor)"
        logger.info("Serving the socket systemd passed", metadata: ["socket": "\(path)", "descriptor": "\(descriptor)"])
        if path != configuredPath {
            logger.notice("The passed socket is not the configured one; clients must use the passed one", metadata: ["configured": "\(configuredPath)"])
        }
        return SocketActivation(endpoint: .listeningDescriptor(descriptor), path: path)
    }
}

/// Hands events to the socket server once it exists: the session is built before the server
/// (whose command handler needs the session), so the link is made afterwards.
final class EventRelay: Sendable {
    private let server = Locked<SocketServer?>(nil)

    func attach(_ socketServer: SocketServer) {
        server.withLock { $0 = socketServer }
    }

    /// `wall`: when the audio behind the event reached Earshot (Unix seconds).
    func publish(_ event: SocketEvent, wall: Double = WallClock.now()) {
        server.withLock { $0 }?.publish(event, wall: wall)
    }

    /// Whether the server has a subscribed client (none before it exists).
    var hasSubscribers: Bool {
        server.withLock { $0?.hasSubscribers ?? false }
    }

    var counters: SocketServer.Counters? {
        server.withLock { $0 }?.counters
    }
}
