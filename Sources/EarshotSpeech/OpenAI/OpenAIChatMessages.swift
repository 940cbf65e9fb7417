import EarshotBase

// The requests and streamed answers of the OpenAI chat API that the assistant uses, as its API
// reference shapes them: `POST chat/completions` with `stream: true`.

/// One message of a conversation, as the chat API takes it.
public struct OpenAIChatMessage: Equatable, Sendable {
    public enum Role: String, Sendable {
        case system
        case user
        case assistant
    }

    public var role: Role
    public var content: String

    public init(_ role: Role, _ content: String) {
        self.role = role
        self.content = content
    }

    var json: JSONValue {
        .object(JSONObject([("role", .string(role.rawValue)), ("content", .string(content))]))
    }
}

/// `POST chat/completions`: the model, the conversation so far, and a request to stream.
public struct OpenAIChatRequest: Equatable, Sendable {
    public var model: String
    public var messages: [OpenAIChatMessage]

    public init(model: String, messages: [OpenAIChatMessage]) {
        self.model = model
        self.messages = messages
    }

    public var body: [UInt8] {
        let object = JSONObject([
            ("model", .string(model)), ("messages", .array(messages.map(\.json))), ("stream", .bool(true)),
        ])
        var bytes: [UInt8] = []
        JSONValue.object(object).write(to: &bytes)
        return bytes
    }
}

/// What one server-sent event of a streamed chat completion says.
public enum OpenAIChatEvent: Equatable, Sendable {
    /// A `chat.completion.chunk`: words to add to the reply (possibly none), and the reason the
    /// model stopped when this chunk is its last (`stop`, `length`, …).
    case chunk(content: String, finishReason: String?)
    /// `data: [DONE]`: the stream's end, as OpenAI and the servers that follow it mark it.
    case done
    /// An event whose data holds an `error` object: the server's message.
    case failed(String)

    /// Reads one server-sent event; nil when its data is neither `[DONE]` nor a JSON object, or
    /// is an object without choices (usage-only chunks, keep-alives).
    public init?(_ event: ServerSentEvent) {
        if event.data.trimmingWhitespace == "[DONE]" {
            self = .done
            return
        }
        guard let object = (try? JSONParser.parse(Array(event.data.utf8)))?.objectValue else { return nil }
        if event.type == "error" || object["error"] != nil {
            self = .failed(OpenAIErrorBody.message(in: object) ?? "an error event without a message")
            return
        }
        guard let choice = object["choices"]?.arrayValue?.first else { return nil }
        let content = choice["delta"]?["content"]?.stringValue ?? ""
        self = .chunk(content: content, finishReason: choice["finish_reason"]?.stringValue)
    }
}

/// `{"choices": [{"message": {"content": "…"}}]}`: a chat completion answered without streaming
/// (a server that ignores `stream`).
public enum OpenAIChatResponse {
    /// The reply in a JSON answer, or nil when the body is no such object.
    public static func content(in body: [UInt8]) -> String? {
        (try? JSONParser.parse(body))?["choices"]?.arrayValue?.first?["message"]?["content"]?.stringValue
    }
}
