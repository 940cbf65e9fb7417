public import EarshotBase
import EarshotProtocol

/// A call of one of `earshot mcp`'s tools, its arguments checked.
public enum MCPToolCall: Hashable, Sendable {
    /// Say `message`, then (with `waitForResponse`) listen for the person's next turn and return
    /// its transcript, giving up when no speech starts within `listenTimeout` seconds.
    case converse(message: String, waitForResponse: Bool, listenTimeout: Double, voice: String?)
    /// Listen for the person's next turn.
    case listen(timeout: Double)
    /// What the daemon is doing.
    case status

    /// Seconds to wait for speech when a call does not say.
    public static let defaultListenTimeout = 30.0
    /// The listen timeouts a call may ask for.
    public static let listenTimeoutRange = 1.0...600.0

    public enum Tool: String, Hashable, Sendable, CaseIterable {
        case converse, speak, listen, status

        /// Its entry in `tools/list`.
        public var definition: JSONValue {
            [
                "name": .string(rawValue),
                "description": .string(summary),
                "inputSchema": ["type": "object", "properties": .object(properties), "required": .array(required.map(JSONValue.string))],
            ]
        }

        private var summary: String {
            switch self {
            case .converse:
                "Say a message to the person aloud, then listen for their spoken answer and return its transcript. "
                    + "Interruptions are reported: if the person talks over the message, stops or dismisses it, the result says "
                    + "after which words. Fails with a busy error while another agent is talking with the person."
            case .speak:
                "Say a message to the person aloud without waiting for an answer. Returns once it has been said, or says "
                    + "when the person interrupted it."
            case .listen:
                "Listen for the person's next spoken turn and return its transcript, without saying anything first."
            case .status:
                "What Earshot is doing: voice mode, the microphone and speaker, and the speech backends."
            }
        }

        private var properties: JSONObject {
            let message: JSONValue = ["type": "string", "description": "What to say, as plain sentences (at most 10000 characters)."]
            let voice: JSONValue = ["type": "string", "description": "A voice's name or id (see `earshot voices`); the current voice if absent."]
            let timeout: JSONValue = [
                "type": "number", "minimum": .integer(1), "maximum": .integer(600),
                "description": "Seconds to wait for the person to start speaking (default 30).",
            ]
            switch self {
            case .converse:
                return [
                    "message": message,
                    "wait_for_response": ["type": "boolean", "description": "Listen for the answer after speaking (default true)."],
                    "listen_timeout": timeout,
                    "voice": voice,
                ]
            case .speak: return ["message": message, "voice": voice]
            case .listen: return ["listen_timeout": timeout]
            case .status: return [:]
            }
        }

        private var required: [String] {
            switch self {
            case .converse, .speak: ["message"]
            case .listen, .status: []
            }
        }
    }

    /// A bad argument, in words the model can act on.
    public struct ArgumentProblem: Error, Hashable, Sendable {
        public var message: String
    }

    public static func parse(_ tool: Tool, arguments: JSONValue) -> Result<MCPToolCall, ArgumentProblem> {
        guard let arguments = arguments.objectValue else {
            return .failure(ArgumentProblem(message: "The arguments of \(tool.rawValue) must be an object."))
        }
        do {
            switch tool {
            case .converse:
                return .success(.converse(
                    message: try message(arguments["message"]),
                    waitForResponse: try flag(arguments["wait_for_response"], default: true),
                    listenTimeout: try timeout(arguments["listen_timeout"]),
                    voice: try voice(arguments["voice"])
                ))
            case .speak:
                return .success(.converse(
                    message: try message(arguments["message"]), waitForResponse: false, listenTimeout: defaultListenTimeout,
                    voice: try voice(arguments["voice"])
                ))
            case .listen:
                return .success(.listen(timeout: try timeout(arguments["listen_timeout"])))
            case .status:
                return .success(.status)
            }
        } catch {
            return .failure(error)
        }
    }

    private static func message(_ value: JSONValue?) throws(ArgumentProblem) -> String {
        let limit = Command.maximumSpeechCharacters
        guard let text = value?.stringValue, !text.allSatisfy(\.isWhitespace), text.count <= limit else {
            throw ArgumentProblem(message: "\"message\" must be the text to say: a non-empty string of at most \(limit) characters.")
        }
        return text
    }

    private static func flag(_ value: JSONValue?, default: Bool) throws(ArgumentProblem) -> Bool {
        switch value {
        case nil, .null?: return `default`
        case .bool(let flag)?: return flag
        default: throw ArgumentProblem(message: "\"wait_for_response\" must be true or false.")
        }
    }

    private static func timeout(_ value: JSONValue?) throws(ArgumentProblem) -> Double {
        switch value {
        case nil, .null?: return defaultListenTimeout
        case let value?:
            guard let seconds = value.doubleValue, listenTimeoutRange.contains(seconds) else {
                throw ArgumentProblem(message: "\"listen_timeout\" must be a number of seconds from 1 to 600.")
            }
            return seconds
        }
    }

    private static func voice(_ value: JSONValue?) throws(ArgumentProblem) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let name)? where !name.isEmpty: return name
        default: throw ArgumentProblem(message: "\"voice\" must be a voice's name or id, e.g. \"Cove\" (see `earshot voices`).")
        }
    }
}
