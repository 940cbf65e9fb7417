public import EarshotProtocol

/// Who may use the web front door, decided from a request's head alone (pure).
///
/// - The `Host` header must name the listening address (or `localhost` on its port): a page
///   whose DNS name was rebound to 127.0.0.1 sends its own name and is refused.
/// - `/socket` needs the token (`?token=…`, compared in constant time) and an `Origin` that is the
///   daemon's own or one of `allowedOrigins` (a chat app's page).
/// - Files come only from the bundled directory's list, by exact name.
public struct WebAccess: Sendable {
    public var listen: WebListenAddress
    public var token: AccessToken
    /// Origins besides the daemon's own that may open the socket: `https://chat.example.com`.
    public var allowedOrigins: [String]
    /// The files the page may load, by name (`index.html`, `earshot.js`).
    public var files: Set<String>

    public static let socketPath = "/socket"

    public init(listen: WebListenAddress, token: AccessToken, allowedOrigins: [String] = [], files: Set<String>) {
        self.listen = listen
        self.token = token
        self.allowedOrigins = allowedOrigins
        self.files = files
    }

    /// What to do with a request.
    public enum Decision: Equatable, Sendable {
        /// Upgrade to the WebSocket that speaks the socket protocol.
        case openSocket
        /// Send the bundled file of this name.
        case serveFile(String)
        /// Refuse with this status; `reason` is logged (never the token) and sent as the body.
        case refuse(status: Int, reason: String)
    }

    /// The origins of `[web] allowed_origins`: `https://chat.example.com http://localhost:3000`,
    /// separated by spaces or commas; each a scheme, a host and perhaps a port, nothing more.
    public static func origins(parsing text: String) throws(WebOriginError) -> [String] {
        let origins = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        for origin in origins {
            let scheme = origin.prefix { $0 != ":" }
            guard scheme == "http" || scheme == "https", origin.dropFirst(scheme.count).hasPrefix("://") else {
                throw WebOriginError(origin: origin, reason: "an origin starts with http:// or https://")
            }
            let rest = origin.dropFirst(scheme.count + 3)
            guard !rest.isEmpty, !rest.contains("/"), !rest.contains("?"), !rest.contains("#"), !rest.contains("@") else {
                throw WebOriginError(origin: origin, reason: "an origin is a scheme, a host and a port only, with no path (https://chat.example.com)")
            }
        }
        return origins
    }

    /// The daemon's own origins: `http://127.0.0.1:8765`, and `http://localhost:8765`.
    public var ownOrigins: [String] {
        ["http://\(listen.hostHeader)", "http://localhost:\(listen.port)"]
    }

    public func decide(method: String, uri: String, host: String?, origin: String?) -> Decision {
        guard let host, host == listen.hostHeader || host.lowercased() == "localhost:\(listen.port)" else {
            return .refuse(status: 421, reason: "the Host header \(Self.shown(host)) is not this daemon's address \(listen.hostHeader)")
        }
        let (path, query) = Self.split(uri)
        if path == Self.socketPath {
            guard method == "GET" else { return .refuse(status: 405, reason: "\(method) on /socket; it takes a WebSocket upgrade (GET)") }
            guard let given = Self.parameter("token", in: query), Self.constantTimeEqual(given, token.text) else {
                return .refuse(status: 401, reason: "a missing or wrong token; `earshot open` gives the page's address with the right one")
            }
            guard let origin else { return .refuse(status: 403, reason: "no Origin header; browsers send one") }
            guard ownOrigins.contains(origin.lowercased()) || allowedOrigins.contains(origin) else {
                return .refuse(status: 403, reason: "the origin \(origin) is not allowed; add it to [web] allowed_origins")
            }
            return .openSocket
        }
        guard method == "GET" || method == "HEAD" else { return .refuse(status: 405, reason: "\(method) \(path); only GET serves files") }
        let name = path == "/" ? "index.html" : String(path.dropFirst())
        guard files.contains(name) else { return .refuse(status: 404, reason: "no file \(Self.shown(path))") }
        return .serveFile(name)
    }

    /// Whether two texts are equal, in time that depends on their lengths only.
    static func constantTimeEqual(_ given: String, _ expected: String) -> Bool {
        let given = Array(given.utf8), expected = Array(expected.utf8)
        var difference = UInt8(given.count == expected.count ? 0 : 1)
        for index in expected.indices {
            difference |= expected[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }

    public static func split(_ uri: String) -> (path: String, query: Substring) {
        let withoutFragment = uri.prefix { $0 != "#" }
        guard let mark = withoutFragment.firstIndex(of: "?") else { return (String(withoutFragment), "") }
        return (String(withoutFragment[..<mark]), withoutFragment[withoutFragment.index(after: mark)...])
    }

    static func parameter(_ name: String, in query: Substring) -> String? {
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.first == Substring(name) { return parts.count == 2 ? String(parts[1]) : "" }
        }
        return nil
    }

    /// A header or path as logs show it: quoted, cut short.
    static func shown(_ text: String?) -> String {
        guard let text else { return "(none)" }
        return "\"\(text.prefix(80))\""
    }
}

/// The web front door's token (64 hex digits). It prints as `<redacted>` however it is printed
/// or dumped, so no log line (a service list, say) can show it.
public struct AccessToken: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public let text: String

    public init(_ text: String) {
        self.text = text
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}

public struct WebOriginError: Error, Equatable, Sendable, CustomStringConvertible {
    public var origin: String
    public var reason: String

    public var description: String { "\"\(origin)\" is not an origin: \(reason)" }
}
