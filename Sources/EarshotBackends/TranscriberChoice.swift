public import EarshotWyomingClient

/// Which speech-to-text backend transcribes, as configured: `embedded` (pocketsphinx, the
/// default), `none`, or a Wyoming server's address (`tcp://host:port`, `unix:///path`).
public enum TranscriberChoice: Equatable, Sendable, CustomStringConvertible {
    case none
    case embedded
    case wyoming(WyomingEndpoint)

    public init(parsing text: String) throws(BackendChoiceError) {
        switch text.lowercased() {
        case "none", "off": self = .none
        case "embedded", "pocketsphinx": self = .embedded
        default:
            do {
                self = .wyoming(try WyomingEndpoint(parsing: text))
            } catch {
                throw BackendChoiceError(text: text, kind: "speech-to-text", reason: error.description)
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
