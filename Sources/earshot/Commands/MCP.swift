import ArgumentParser
import EarshotBase
import EarshotClient
import Foundation

struct MCPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the Model Context Protocol on stdin and stdout, so a coding agent can talk with the person by voice.",
        discussion: """
            Tools: converse (say a message, then return the transcript of the person's answer), speak, listen and \
            status. The daemon (earshotd, with a transcriber and a voice) does the listening and speaking; one agent \
            talks at a time, others get a busy result. Add it to an agent with, e.g., `claude mcp add earshot -- earshot mcp`.
            """
    )

    @OptionGroup var daemon: DaemonOptions

    static let instructions = """
        Earshot speaks to the person through their speaker and hears their answer through their microphone. \
        Use converse to say something short and get their spoken reply as text; speak to say something without \
        waiting; listen to hear them without speaking first. A result may say that the person interrupted, stopped \
        or dismissed you: take that into account. Speak in plain sentences, without markdown or code.
        """

    func run() throws {
        let server = MCPStdioServer(socketPath: daemon.socket)
        server.serve()
    }
}

/// `earshot mcp`'s I/O: reads JSON-RPC lines from stdin into its ``MCPSession``, runs each tool
/// call on a thread of its own (so `ping` and cancellations are answered meanwhile), and writes
/// every message to stdout as one line. Nothing else goes to stdout.
final class MCPStdioServer: Sendable {
    private let socketPath: String
    private let session = Locked(MCPSession(serverName: "earshot", serverVersion: "1", instructions: MCPCommand.instructions))
    /// Requests the client cancelled: their calls stop and are not answered.
    private let cancelled = Locked<Set<JSONValue>>([])
    private let output = Locked(())

    init(socketPath: String) {
        self.socketPath = socketPath
    }

    func serve() {
        var splitter = LineSplitter(maximumLength: 4 << 20)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            splitter.append(buffer[0..<count])
            while let line = splitter.next() {
                switch line {
                case .line(let bytes):
                    let text = bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes
                    if !text.isEmpty { perform(session.withLock { $0.lineReceived(text) }) }
                case .tooLong:
                    send(MCPSession.error(id: .null, .invalidRequest, "The message is longer than 4 MiB; it was discarded."))
                }
            }
        }
        session.withLock { $0.inputEnded() }
    }

    private func perform(_ action: MCPSession.Action) {
        switch action {
        case .none:
            break
        case .send(let message):
            send(message)
        case .cancel(let id):
            cancelled.withLock { _ = $0.insert(id) }
        case .callTool(let id, let call):
            let client = session.withLock { $0.clientName } ?? "an MCP client"
            let conversation = AgentConversation(socketPath: socketPath, holder: "\(client) (earshot mcp, pid \(getpid()))")
            let thread = Thread { [self] in
                let result = conversation.run(call) { cancelled.withLock { $0.contains(id) } }
                // A cancelled request is not answered (the specification's cancellation rule).
                guard cancelled.withLock({ $0.remove(id) == nil }) else { return }
                send(MCPSession.toolResult(id: id, result))
            }
            thread.start()
        }
    }

    private func send(_ message: JSONValue) {
        var bytes: [UInt8] = []
        message.write(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        _ = output.withLock { _ in ConsoleOutput.write(bytes, to: STDOUT_FILENO) }
    }
}
