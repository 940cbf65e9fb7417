import ArgumentParser
import EarshotBase
import EarshotClient
import EarshotProtocol
#if canImport(Glibc)
import Glibc
#endif

struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Print the voice-mode page's address (with its access token) and open it in the browser.",
        discussion: """
            The daemon serves the page when started with --web 127.0.0.1:8765 (or [web] listen in its \
            configuration). The token (kept across the daemon's restarts, gone at logout) is in the address's fragment, which the browser \
            never sends to a server. With a desktop session (DISPLAY or WAYLAND_DISPLAY), the page is \
            opened with xdg-open.
            Exit status: 0 done, 1 the web front door is off, 3 the daemon is not running, 4 it could not be talked to.
            """
    )

    @OptionGroup var daemon: DaemonOptions

    @Flag(help: "Only print the address.")
    var printOnly = false

    func run() throws {
        let response = try daemon.withConnection { connection throws(ClientError) in try connection.request(.status) }
        let status = try? JSONParser.parse(Array(response.line.utf8))
        guard let listen = status?["settings"]?["web"]?["listen"]?.stringValue, let address = try? WebListenAddress(parsing: listen) else {
            ConsoleOutput.error("The daemon serves no web page: start earshotd with --web 127.0.0.1:8765, or set listen in the [web] section of its configuration.")
            throw ExitCode(1)
        }
        let tokenPath = String(daemon.socket[..<(daemon.socket.lastIndex(of: "/") ?? daemon.socket.startIndex)]) + "/"
            + SocketLocation.webTokenFileName
        guard let token = Self.readToken(tokenPath) else {
            ConsoleOutput.error("Cannot read the web page's token from \(tokenPath): is the daemon running as you?")
            throw ExitCode(1)
        }
        let url = "http://\(address.hostHeader)/#token=\(token)"
        ConsoleOutput.line(url)
        if !printOnly, getenv("DISPLAY") != nil || getenv("WAYLAND_DISPLAY") != nil {
            Self.launch("xdg-open", url)
        }
    }

    static func readToken(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 128)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let token = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .filter { $0.isHexDigit }
        return token.count == 64 ? token : nil
    }

    /// Starts `program` with `argument` and does not wait: the browser outlives this command.
    static func launch(_ program: String, _ argument: String) {
        var pid = pid_t()
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(program), strdup(argument), nil]
        defer { arguments.forEach { free($0) } }
        let result = posix_spawnp(&pid, program, nil, nil, arguments, environ)
        if result != 0 {
            ConsoleOutput.error("Could not run \(program) (\(String(cString: strerror(result)))); open the address above yourself.")
        }
    }
}
