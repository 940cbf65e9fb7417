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

    /// `wall`: when the audio behind the event reached Earshot (Unix seconds).
    func publish(_ event: SocketEvent, wall: Double = WallClock.now()) {
        server.withLock { $0 }?.publish(event, wall: wall)
    }

    var counters: SocketServer.Counters? {
        server.withLock { $0 }?.counters
    }
}
