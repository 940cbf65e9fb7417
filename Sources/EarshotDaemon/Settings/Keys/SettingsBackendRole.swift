import EarshotSpeech

/// The job a backend setting chooses for; it decides which engine names mean `embedded`.
///
/// The rules are those of `BackendChoice` (EarshotBackends), which the daemon parses with:
/// this module stays free of the speech engines' C libraries, and a test checks both agree.
public enum SettingsBackendRole: String, Equatable, Sendable {
    case speechToText = "speech-to-text"
    case textToSpeech = "text-to-speech"

    var engineNames: Set<String> {
        switch self {
        case .speechToText: ["embedded", "pocketsphinx"]
        case .textToSpeech: ["embedded", "flite", "espeak-ng"]
        }
    }

    /// Whether `text` names a backend: `none`/`off`, an embedded engine, a Wyoming server's
    /// `tcp://HOST:PORT` or `unix:///PATH`, or an OpenAI-compatible server's `openai+http://HOST:PORT/v1`.
    func verdict(on text: String) -> Verdict {
        let name = text.lowercased()
        if name == "none" || name == "off" || engineNames.contains(name) { return .valid }
        guard text.contains("://") else { return .notABackend }
        if OpenAIEndpoint.isOpenAIAddress(text) {
            do {
                _ = try OpenAIEndpoint(parsing: text)
                return .valid
            } catch {
                return .badOpenAIAddress(error.reason)
            }
        }
        return Self.addressProblem(text).map(Verdict.badAddress) ?? .valid
    }

    /// What is wrong with a Wyoming server address (the same reasons `WyomingEndpoint` gives).
    private static func addressProblem(_ text: String) -> String? {
        if text.hasPrefix("unix://") {
            return text.count > "unix://".count ? nil : "it names no socket path"
        }
        guard text.hasPrefix("tcp://") else { return "only tcp:// and unix:// addresses are supported" }
        var rest = Substring(text.dropFirst("tcp://".count))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        let host: Substring
        let port: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return "the IPv6 host has no closing ]" }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let afterHost = rest[rest.index(after: close)...]
            guard afterHost.hasPrefix(":") else { return "it has no port" }
            port = afterHost.dropFirst()
        } else {
            guard let colon = rest.lastIndex(of: ":") else { return "it has no port" }
            host = rest[..<colon]
            port = rest[rest.index(after: colon)...]
        }
        guard !host.isEmpty else { return "it has no host" }
        guard let number = Int(port), (1...65_535).contains(number) else { return "the port must be a number from 1 to 65535" }
        return nil
    }

    /// Whether a text names a backend.
    enum Verdict: Equatable {
        case valid
        /// Neither a backend's name nor an address.
        case notABackend
        /// A Wyoming server address that cannot be used, and why.
        case badAddress(String)
        /// An OpenAI-compatible server address that cannot be used, and why.
        case badOpenAIAddress(String)
    }
}
