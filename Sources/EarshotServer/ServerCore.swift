import Logging
import Synchronization

/// What the server, its connections and the publisher share.
final class ServerCore: Sendable {
    let configuration: SocketServer.Configuration
    let logger: Logger
    let commandHandler: any CommandHandler
    let registry = ConnectionRegistry()
    let droppedLevels = Atomic<Int>(0)
    let disconnectedSlowClients = Atomic<Int>(0)

    init(configuration: SocketServer.Configuration, logger: Logger, commandHandler: any CommandHandler) {
        self.configuration = configuration
        self.logger = logger
        self.commandHandler = commandHandler
    }
}
