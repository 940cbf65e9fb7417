import EarshotProtocol
import EarshotServer
import ServiceLifecycle
#if canImport(Glibc)
import Glibc
#endif

/// Serves the web front door (the page and its WebSocket) until shutdown.
struct WebService: Service, CustomStringConvertible {
    let server: SocketServer
    let web: SocketServer.WebConfiguration

    var description: String { "WebService(http://\(web.access.listen.hostHeader)/)" }

    func run() async throws {
        try await cancelWhenGracefulShutdown { [server, web] in
            try await server.runWeb(web)
        }
    }
}

/// The secret a page must present to open the WebSocket: 256 random bits as 64 hex digits, in a
/// file only this user can read (`earshot open` reads it). A restarted daemon keeps the token
/// it finds there, so an open page reconnects; the runtime directory goes at logout, and with it
/// the token.
enum WebToken {
    /// `web-token` beside the socket: `$XDG_RUNTIME_DIR/earshot/web-token`.
    static func path(besideSocket socket: String) -> String {
        SocketLocation.directory(ofSocket: socket) + "/" + SocketLocation.webTokenFileName
    }

    /// The token in `path` when it is this user's alone and well formed, else a new one written there.
    static func loadOrCreate(at path: String) throws(DaemonStartError) -> String {
        if let token = existing(at: path) { return token }
        return try create(at: path)
    }

    private static func existing(at path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == getuid(),
              status.st_mode & 0o077 == 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 80)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let token = String(decoding: bytes[..<count], as: UTF8.self).filter { !$0.isWhitespace }
        return token.count == 64 && token.allSatisfy(\.isHexDigit) ? token : nil
    }

    /// Makes a token and writes it to `path` (mode 0600, its directory 0700 when made here).
    static func create(at path: String) throws(DaemonStartError) -> String {
        var generator = SystemRandomNumberGenerator()
        let token = (0..<32).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16)
        }.joined()
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !directory.isEmpty { mkdir(directory, 0o700) }
        unlink(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw DaemonStartError(message: "Cannot write the web front door's token to \(path): \(String(cString: strerror(errno))).")
        }
        defer { close(descriptor) }
        let bytes = Array((token + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw DaemonStartError(message: "Cannot write the web front door's token to \(path): \(String(cString: strerror(errno))).")
        }
        return token
    }
}

/// Where the reference page's files are: `../share/earshot/web` beside the executable (an
/// installed Earshot), else `web/` in the source checkout of a development build.
enum WebPage {
    static func directory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if length > 0 {
            let executable = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let binDirectory = executable[..<(executable.lastIndex(of: "/") ?? executable.startIndex)]
            let installed = String(binDirectory) + "/../share/earshot/web"
            if isDirectory(installed + "/index.html", file: true) { return installed }
        }
        return isDirectory(checkoutDirectory + "/index.html", file: true) ? checkoutDirectory : nil
    }

    /// `web/` at the root of the checkout: this file is `Sources/EarshotDaemon/Services/…`.
    static let checkoutDirectory: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)
        return parts.joined(separator: "/") + "/web"
    }()

    private static func isDirectory(_ path: String, file: Bool) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == (file ? S_IFREG : S_IFDIR)
    }
}
