import EarshotProtocol
import EarshotServer
import Synchronization

/// Hands events to the socket server once it exists: the session is built before the server
/// (whose command handler needs the session), so the link is made afterwards.
final class EventRelay: Sendable {
    private let server = Mutex<SocketServer?>(nil)

    func attach(_ socketServer: SocketServer) {
        server.withLock { $0 = socketServer }
    }

    func publish(_ event: SocketEvent) {
        server.withLock { $0 }?.publish(event)
    }

    var counters: SocketServer.Counters? {
        server.withLock { $0 }?.counters
    }
}
