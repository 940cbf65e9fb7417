/// Where a Wyoming server listens: `tcp://HOST:PORT` or `unix:///PATH`, as the servers' own
/// `--uri` option spells it.
public enum WyomingEndpoint: Hashable, Sendable, CustomStringConvertible {
    case tcp(host: String, port: Int)
    case unix(path: String)

    /// Parses `tcp://HOST:PORT` (an IPv6 host in brackets: `tcp://[::1]:10300`) or `unix:///PATH`.
    public init(parsing text: String) throws(WyomingEndpointError) {
        if text.hasPrefix("unix://") {
            let path = String(text.dropFirst("unix://".count))
            guard !path.isEmpty else { throw WyomingEndpointError(text, "it names no socket path") }
            self = .unix(path: path)
            return
        }
        guard text.hasPrefix("tcp://") else {
            throw WyomingEndpointError(text, "only tcp:// and unix:// addresses are supported")
        }
        var rest = Substring(text.dropFirst("tcp://".count))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        let host: Substring
        let portText: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw WyomingEndpointError(text, "the IPv6 host has no closing ]") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let afterHost = rest[rest.index(after: close)...]
            guard afterHost.hasPrefix(":") else { throw WyomingEndpointError(text, "it has no port") }
            portText = afterHost.dropFirst()
        } else {
            guard let colon = rest.lastIndex(of: ":") else { throw WyomingEndpointError(text, "it has no port") }
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        }
        guard !host.isEmpty else { throw WyomingEndpointError(text, "it has no host") }
        guard let port = Int(portText), (1...65_535).contains(port) else {
            throw WyomingEndpointError(text, "the port must be a number from 1 to 65535")
        }
        self = .tcp(host: String(host), port: port)
    }

    public var description: String {
        switch self {
        case .tcp(let host, let port): host.contains(":") ? "tcp://[\(host)]:\(port)" : "tcp://\(host):\(port)"
        case .unix(let path): "unix://\(path)"
        }
    }
}

/// Why a text is not a Wyoming server address.
public struct WyomingEndpointError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text as given.
    public var text: String
    /// What is wrong with it.
    public var reason: String

    public init(_ text: String, _ reason: String) {
        self.text = text
        self.reason = reason
    }

    public var description: String {
        "\"\(text)\" is not a Wyoming server address (\(reason)): use tcp://HOST:PORT or unix:///PATH"
    }
}
