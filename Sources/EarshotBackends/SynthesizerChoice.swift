public import EarshotWyomingClient

/// Which text-to-speech backend speaks: `embedded` (flite for English, espeak-ng for other
/// languages; the default), `none`, or a Wyoming server's address.
public enum SynthesizerChoice: Equatable, Sendable, CustomStringConvertible {
    case none
    case embedded
    case wyoming(WyomingEndpoint)

    public init(parsing text: String) throws(BackendChoiceError) {
        switch text.lowercased() {
        case "none", "off": self = .none
        case "embedded", "flite", "espeak-ng": self = .embedded
        default:
            do {
                self = .wyoming(try WyomingEndpoint(parsing: text))
            } catch {
                throw BackendChoiceError(text: text, kind: "text-to-speech", reason: error.description)
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
