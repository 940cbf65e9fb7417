public import EarshotSpeech

/// Which backend does a speech job, as configured: `embedded` (the default: pocketsphinx for
/// speech-to-text, flite and espeak-ng for text-to-speech), `none`, a Wyoming server's address
/// (`tcp://host:port`, `unix:///path`) or an OpenAI-compatible server's (`openai+http://host:port/v1`).
public enum BackendChoice: Equatable, Sendable, CustomStringConvertible {
    case none
    case embedded
    case wyoming(WyomingEndpoint)
    case openAI(OpenAIEndpoint)

    /// The job a backend is chosen for: it decides the engine names accepted for `embedded`.
    public enum Role: String, Sendable {
        case speechToText = "speech-to-text"
        case textToSpeech = "text-to-speech"

        var embeddedEngines: Set<String> {
            switch self {
            case .speechToText: ["embedded", "pocketsphinx"]
            case .textToSpeech: ["embedded", "flite", "espeak-ng"]
            }
        }
    }

    public init(parsing text: String, role: Role) throws(BackendChoiceError) {
        let name = text.lowercased()
        if name == "none" || name == "off" {
            self = .none
        } else if role.embeddedEngines.contains(name) {
            self = .embedded
        } else if OpenAIEndpoint.isOpenAIAddress(text) {
            do {
                self = .openAI(try OpenAIEndpoint(parsing: text))
            } catch {
                throw BackendChoiceError(text: text, kind: role.rawValue, reason: error.description)
            }
        } else {
            do {
                self = .wyoming(try WyomingEndpoint(parsing: text))
            } catch {
                throw BackendChoiceError(text: text, kind: role.rawValue, reason: error.description)
            }
        }
    }

    public var description: String {
        switch self {
        case .none: "none"
        case .embedded: "embedded"
        case .wyoming(let endpoint): endpoint.description
        case .openAI(let endpoint): endpoint.description
        }
    }
}

/// A backend setting that names no backend.
public struct BackendChoiceError: Error, Equatable, Sendable, CustomStringConvertible {
    public var text: String
    public var kind: String
    public var reason: String

    public var description: String {
        text.contains("://")
            ? "\"\(text)\" is not a usable \(kind) server address: \(reason)"
            : "\"\(text)\" is not a \(kind) backend: use embedded, none, tcp://HOST:PORT, unix:///PATH or openai+http://HOST:PORT/v1."
    }
}
