import EarshotSpeech
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A bearer token for an OpenAI-compatible server. It prints as `<redacted>` however it is
/// printed or dumped, so no log line, status or error message can show it.
public struct OpenAIAPIKey: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    fileprivate let secret: String

    public init(_ secret: String) {
        self.secret = secret
    }

    /// The `Authorization` header's value.
    var authorization: String { "Bearer \(secret)" }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    public var customMirror: Mirror { Mirror(self, children: []) }

    /// The key a backend uses: the file's when `file` is set (it must be readable by its owner
    /// only), else `OPENAI_API_KEY` from `environment`, else none (local servers need none).
    public static func load(file: String?, environment: [String: String]) throws(OpenAIAPIKeyError) -> OpenAIAPIKey? {
        if let file {
            // `~/` as a shell would expand it: the file is usually written by hand.
            if file.hasPrefix("~/"), let home = environment["HOME"] { return try readFile(home + file.dropFirst()) }
            return try readFile(file)
        }
        guard let secret = environment["OPENAI_API_KEY"]?.trimmingWhitespace, !secret.isEmpty else { return nil }
        return OpenAIAPIKey(secret)
    }

    /// The environment of this process, as `load` takes it.
    public static var processEnvironment: [String: String] {
        var environment: [String: String] = [:]
        for name in ["OPENAI_API_KEY", "HOME"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }

    static let maximumFileBytes = 4096

    private static func readFile(_ path: String) throws(OpenAIAPIKeyError) -> OpenAIAPIKey {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { throw OpenAIAPIKeyError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw OpenAIAPIKeyError(path: path, reason: String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw OpenAIAPIKeyError(path: path, reason: "it is not a regular file") }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw OpenAIAPIKeyError(
                path: path,
                reason: "others may read it (mode \(String(mode, radix: 8))): run chmod 600 \(path)"
            )
        }
        var bytes = [UInt8](repeating: 0, count: maximumFileBytes + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw OpenAIAPIKeyError(path: path, reason: String(cString: strerror(errno))) }
            if got == 0 { break }
            count += got
        }
        guard count <= maximumFileBytes else { throw OpenAIAPIKeyError(path: path, reason: "it is larger than an API key (4 KiB)") }
        let secret = String(decoding: bytes[..<count], as: UTF8.self).trimmingWhitespace
        guard !secret.isEmpty else { throw OpenAIAPIKeyError(path: path, reason: "it is empty") }
        guard !secret.contains(where: { $0.isNewline || $0.isWhitespace }) else {
            throw OpenAIAPIKeyError(path: path, reason: "it holds more than one word; put the key alone in the file")
        }
        return OpenAIAPIKey(secret)
    }
}

/// Why an API key file cannot be used.
public struct OpenAIAPIKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "The API key file \(path) cannot be used: \(reason)." }
}

