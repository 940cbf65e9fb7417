public import EarshotWyomingClient

/// Which backend does a speech job, as configured: `embedded` (the default: pocketsphinx for
/// speech-to-text, flite and espeak-ng for text-to-speech), `none`, or a Wyoming server's address
/// (`tcp://host:port`, `unix:///path`).
public enum BackendChoice: Equatable, Sendable, CustomStringConvertible {
    case none
    case embedded
    case wyoming(WyomingEndpoint)

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
        }
    }
}
