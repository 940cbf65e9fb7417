import EarshotBase
import EarshotProtocol
import Logging
import NIOCore
import Synchronization

/// What the server, its connections and the publisher share.
final class ServerCore: Sendable {
    let configuration: SocketServer.Configuration
    let logger: Logger
    let commandHandler: any CommandHandler
    let registry = ConnectionRegistry()
    /// Which connection holds the conversation (`claim`, `release`).
    let conversation = Locked(ConversationClaim())
    let droppedLevels = Atomic<Int>(0)
    let disconnectedSlowClients = Atomic<Int>(0)
    /// The publisher's buffers for `level` events, reused for every one.
    let levelLine = Locked(LevelLine())

    init(configuration: SocketServer.Configuration, logger: Logger, commandHandler: any CommandHandler) {
        self.configuration = configuration
        self.logger = logger
        self.commandHandler = commandHandler
    }
}

/// A `level` event's line, encoded into buffers that keep their storage from one event to the
/// next.
struct LevelLine {
    private(set) var writer = JSONLineWriter()
    private(set) var line = ByteBuffer()

    mutating func encode(_ event: SocketEvent, wall: Double) {
        writer.removeAll()
        event.write(to: &writer, wall: wall)
        line.clear()
        line.writeBytes(writer.bytes)
    }
}
