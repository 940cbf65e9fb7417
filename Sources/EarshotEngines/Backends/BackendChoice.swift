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
                throw BackendChoiceError(text: text, kind: role.rawValue, problem: .openAIAddress(error))
            }
        } else {
            do {
                self = .wyoming(try WyomingEndpoint(parsing: text))
            } catch {
                throw BackendChoiceError(
                    text: text, kind: role.rawValue, problem: text.contains("://") ? .wyomingAddress(error) : .notABackend
                )
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
    /// What is wrong with the text.
    public enum Problem: Equatable, Sendable {
        /// Neither a backend's name nor an address.
        case notABackend
        /// A Wyoming server address that cannot be used.
        case wyomingAddress(WyomingEndpointError)
        /// An OpenAI-compatible server address that cannot be used.
        case openAIAddress(OpenAIEndpointError)
    }

    public var text: String
    public var kind: String
    public var problem: Problem

    public var description: String {
        switch problem {
        case .notABackend:
            "\"\(text)\" is not a \(kind) backend: use embedded, none, tcp://HOST:PORT, unix:///PATH or openai+http://HOST:PORT/v1."
        case .wyomingAddress(let error): "\"\(text)\" is not a usable \(kind) server address: \(error.description)"
        case .openAIAddress(let error): "\"\(text)\" is not a usable \(kind) server address: \(error.description)"
        }
    }
}
