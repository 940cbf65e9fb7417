public import EarshotBase

/// The Model Context Protocol over stdio as `earshot mcp` serves it, without I/O: one JSON-RPC 2.0
/// message per line in, the next thing to do out. It serves tools only: `initialize`,
/// `notifications/initialized`, `ping`, `tools/list` and `tools/call`; anything else gets the
/// JSON-RPC error a client expects.
public struct MCPSession: Hashable, Sendable {
    public enum State: Hashable, Sendable {
        /// Only `initialize` (and `ping`) are served.
        case awaitingInitialize
        /// `initialize` was answered; the client's `notifications/initialized` may still come.
        case initialized(client: String, protocolVersion: String)
        /// The client hung up (its end of stdin closed).
        case closed
    }

    /// What the I/O must do for one line read.
    public enum Action: Hashable, Sendable {
        /// Nothing: a notification was taken note of.
        case none
        /// Write this message as one line.
        case send(JSONValue)
        /// Run the tool and answer request `id` with its result (``MCPSession/toolResult(id:_:)``).
        case callTool(id: JSONValue, MCPToolCall)
        /// The client cancelled its request `id` (`notifications/cancelled`).
        case cancel(id: JSONValue)
    }

    /// The protocol revisions this server speaks, newest first; a client asking for another gets
    /// the newest, as the specification's version negotiation says.
    public static let protocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]

    /// The JSON-RPC error codes used here.
    public enum ErrorCode: Int, Sendable {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
    }

    public private(set) var state = State.awaitingInitialize
    /// `serverInfo` of the answer to `initialize`.
    public let serverName: String
    public let serverVersion: String
    /// Said to the client in the answer to `initialize`: how an agent should use these tools.
    public let instructions: String

    public init(serverName: String, serverVersion: String, instructions: String) {
        self.serverName = serverName
        self.serverVersion = serverVersion
        self.instructions = instructions
    }

    /// The client's name and version from its `initialize`, e.g. "claude-code 2.1.0".
    public var clientName: String? {
        if case .initialized(let client, _) = state { client } else { nil }
    }

    /// One line from the client, without its newline.
    public mutating func lineReceived(_ line: some Collection<UInt8>) -> Action {
        let message: JSONValue
        do {
            message = try JSONParser.parse(line)
        } catch {
            return .send(Self.error(id: .null, .parseError, "The message is not JSON: \(error.reason) at column \(error.column)."))
        }
        guard let object = message.objectValue else {
            return .send(Self.error(id: .null, .invalidRequest, "A message must be one JSON-RPC object per line (batches are not supported)."))
        }
        guard object["jsonrpc"]?.stringValue == "2.0" else {
            return .send(Self.error(id: object["id"] ?? .null, .invalidRequest, "The message lacks \"jsonrpc\": \"2.0\"."))
        }
        let id = object["id"]
        guard let method = object["method"]?.stringValue else {
            // A response to a request of ours: this server sends none, so it is ignored.
            return id == nil || object["result"] != nil || object["error"] != nil
                ? .none : .send(Self.error(id: id ?? .null, .invalidRequest, "The request has no \"method\"."))
        }
        let params = object["params"]?.objectValue ?? [:]
        guard let id else { return notification(method, params) }
        guard id.stringValue != nil || id.integerValue != nil else {
            return .send(Self.error(id: .null, .invalidRequest, "A request's \"id\" must be a string or a number."))
        }
        return request(id: id, method, params)
    }

    /// Stdin ended.
    public mutating func inputEnded() {
        state = .closed
    }

    private mutating func notification(_ method: String, _ params: JSONObject) -> Action {
        switch method {
        case "notifications/cancelled":
            guard let id = params["requestId"] else { return .none }
            return .cancel(id: id)
        default:
            // notifications/initialized and any other notification need no answer.
            return .none
        }
    }

    private mutating func request(id: JSONValue, _ method: String, _ params: JSONObject) -> Action {
        switch (method, state) {
        case ("initialize", _):
            return .send(initialize(id: id, params))
        case ("ping", _):
            return .send(Self.result(id: id, [:]))
        case (_, .awaitingInitialize), (_, .closed):
            return .send(Self.error(id: id, .invalidRequest, "The session is not initialized: send \"initialize\" first."))
        case ("tools/list", .initialized):
            return .send(Self.result(id: id, ["tools": .array(MCPToolCall.Tool.allCases.map(\.definition))]))
        case ("tools/call", .initialized):
            guard let name = params["name"]?.stringValue else {
                return .send(Self.error(id: id, .invalidParams, "tools/call needs \"name\", the tool to call."))
            }
            guard let tool = MCPToolCall.Tool(rawValue: name) else {
                let names = MCPToolCall.Tool.allCases.map(\.rawValue).joined(separator: ", ")
                return .send(Self.error(id: id, .invalidParams, "There is no tool \"\(name)\". The tools are: \(names)."))
            }
            switch MCPToolCall.parse(tool, arguments: params["arguments"] ?? .object([:])) {
            case .success(let call):
                return .callTool(id: id, call)
            case .failure(let problem):
                // Bad arguments are the model's to fix, so they come back as a tool error it reads.
                return .send(Self.toolResult(id: id, MCPToolResult(text: problem.message, isError: true)))
            }
        default:
            return .send(Self.error(id: id, .methodNotFound, "There is no method \"\(method)\"; this server offers tools only."))
        }
    }

    private mutating func initialize(id: JSONValue, _ params: JSONObject) -> JSONValue {
        let asked = params["protocolVersion"]?.stringValue ?? ""
        let version = Self.protocolVersions.contains(asked) ? asked : Self.protocolVersions[0]
        let info = params["clientInfo"]?.objectValue
        let client = [info?["name"]?.stringValue, info?["version"]?.stringValue].compactMap { $0 }.joined(separator: " ")
        state = .initialized(client: client.isEmpty ? "an MCP client" : client, protocolVersion: version)
        return Self.result(id: id, [
            "protocolVersion": .string(version),
            "capabilities": ["tools": ["listChanged": false]],
            "serverInfo": ["name": .string(serverName), "version": .string(serverVersion)],
            "instructions": .string(instructions),
        ])
    }

    // MARK: Messages

    public static func result(id: JSONValue, _ result: JSONObject) -> JSONValue {
        ["jsonrpc": "2.0", "id": id, "result": .object(result)]
    }

    public static func error(id: JSONValue, _ code: ErrorCode, _ message: String) -> JSONValue {
        ["jsonrpc": "2.0", "id": id, "error": ["code": .integer(code.rawValue), "message": .string(message)]]
    }

    /// The answer to `tools/call` request `id`.
    public static func toolResult(id: JSONValue, _ result: MCPToolResult) -> JSONValue {
        Self.result(id: id, [
            "content": [["type": "text", "text": .string(result.text)]],
            "isError": .bool(result.isError),
        ])
    }
}

/// What a tool call returns: words for the agent, and whether they report a failure.
public struct MCPToolResult: Hashable, Sendable {
    public var text: String
    public var isError: Bool

    public init(text: String, isError: Bool) {
        self.text = text
        self.isError = isError
    }
}
