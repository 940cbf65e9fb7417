/// Where an OpenAI-compatible speech server listens, as a backend setting names it:
/// `openai+http://HOST:PORT/v1` or `openai+https://HOST/v1` (whisper.cpp's server, speaches,
/// Kokoro-FastAPI, LocalAI, or `openai+https://api.openai.com/v1`).
///
/// The `openai+` prefix tells it from a Wyoming server's `tcp://` address; the rest is the base
/// URL the server's documentation gives, which the API's paths (`audio/transcriptions`) follow.
public struct OpenAIEndpoint: Hashable, Sendable, CustomStringConvertible {
    public enum Scheme: String, Sendable {
        case http
        case https
    }

    public var scheme: Scheme
    /// A name or an address; an IPv6 address without its brackets.
    public var host: String
    public var port: Int
    /// The path the API's paths follow, without a trailing slash: `/v1`, or empty.
    public var basePath: String

    public static let prefix = "openai+"

    /// Whether `text` is meant as an OpenAI-compatible server's address (it may still be malformed).
    public static func isOpenAIAddress(_ text: String) -> Bool {
        text.lowercased().hasPrefix(prefix)
    }

    /// Parses `openai+http://HOST[:PORT][/PATH]` or `openai+https://…`; the port defaults to the
    /// scheme's (80, 443).
    public init(parsing text: String) throws(OpenAIEndpointError) {
        guard Self.isOpenAIAddress(text) else {
            throw OpenAIEndpointError(text, "it does not start with openai+http:// or openai+https://")
        }
        let url = text.dropFirst(Self.prefix.count)
        guard let separator = url.firstRange(of: "://") else {
            throw OpenAIEndpointError(text, "it has no :// after the scheme")
        }
        guard let scheme = Scheme(rawValue: url[..<separator.lowerBound].lowercased()) else {
            throw OpenAIEndpointError(text, "the scheme must be http or https")
        }
        let rest = url[separator.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let path = rest[authority.endIndex...]
        guard !path.contains("?"), !path.contains("#") else {
            throw OpenAIEndpointError(text, "it has a query or fragment; give the base URL only, such as http://localhost:8000/v1")
        }
        guard !authority.contains("@") else {
            throw OpenAIEndpointError(text, "it holds credentials; give the API key with OPENAI_API_KEY or api_key_file instead")
        }
        let host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw OpenAIEndpointError(text, "the IPv6 host has no closing ]") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let afterHost = authority[authority.index(after: close)...]
            if !afterHost.isEmpty {
                guard afterHost.hasPrefix(":") else { throw OpenAIEndpointError(text, "unexpected text after the IPv6 host") }
                portText = afterHost.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty else { throw OpenAIEndpointError(text, "it has no host") }
        var port = scheme == .https ? 443 : 80
        if let portText {
            guard let number = Int(portText), (1...65_535).contains(number) else {
                throw OpenAIEndpointError(text, "the port must be a number from 1 to 65535")
            }
            port = number
        }
        var basePath = String(path)
        while basePath.hasSuffix("/") { basePath.removeLast() }
        self.scheme = scheme
        self.host = String(host)
        self.port = port
        self.basePath = basePath
    }

    /// The URL of one of the API's paths: `url(of: "audio/speech")`.
    public func url(of path: String) -> String {
        "\(baseURL)/\(path)"
    }

    /// `http://127.0.0.1:8000/v1`: the base URL as servers document it.
    public var baseURL: String {
        let bracketed = host.contains(":") ? "[\(host)]" : host
        let defaultPort = scheme == .https ? 443 : 80
        let authority = port == defaultPort ? bracketed : "\(bracketed):\(port)"
        return "\(scheme.rawValue)://\(authority)\(basePath)"
    }

    /// As the setting spells it: `openai+http://127.0.0.1:8000/v1`.
    public var description: String { Self.prefix + baseURL }
}

/// Why a text is not an OpenAI-compatible server's address.
public struct OpenAIEndpointError: Error, Equatable, Sendable, CustomStringConvertible {
    public var text: String
    public var reason: String

    public init(_ text: String, _ reason: String) {
        self.text = text
        self.reason = reason
    }

    public var description: String {
        "\"\(text)\" is not an OpenAI-compatible server address (\(reason)): use openai+http://HOST:PORT/v1 or openai+https://HOST/v1"
    }
}
