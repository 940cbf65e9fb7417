import EarshotBase
import EarshotClient
import Testing

/// The JSON-RPC and MCP lifecycle of `earshot mcp`, line by line.
@Suite struct MCPSessionTests {
    static func session() -> MCPSession {
        MCPSession(serverName: "earshot", serverVersion: "1", instructions: "Talk.")
    }

    static func initialized() -> MCPSession {
        var session = session()
        _ = session.lineReceived(line(
            #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"claude-code","version":"2.1"}}}"#
        ))
        _ = session.lineReceived(line(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#))
        return session
    }

    static func line(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func sent(_ action: MCPSession.Action) -> JSONValue? {
        if case .send(let message) = action { message } else { nil }
    }

    @Test func initializeAgreesOnTheClientsVersionAndOffersTools() {
        var session = Self.session()
        let answer = Self.sent(session.lineReceived(Self.line(
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"claude-code","version":"2.1"}}}"#
        )))
        #expect(answer?["id"] == 1)
        #expect(answer?["result"]?["protocolVersion"] == "2025-06-18")
        #expect(answer?["result"]?["capabilities"] == ["tools": ["listChanged": false]])
        #expect(answer?["result"]?["serverInfo"] == ["name": "earshot", "version": "1"])
        #expect(session.clientName == "claude-code 2.1")
    }

    @Test func anUnknownVersionGetsTheNewest() {
        var session = Self.session()
        let answer = Self.sent(session.lineReceived(Self.line(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1999-01-01"}}"#)))
        #expect(answer?["result"]?["protocolVersion"] == .string(MCPSession.protocolVersions[0]))
    }

    @Test func toolsAreListedWithTheirArguments() {
        var session = Self.initialized()
        let answer = Self.sent(session.lineReceived(Self.line(#"{"jsonrpc":"2.0","id":"t","method":"tools/list"}"#)))
        let tools = answer?["result"]?["tools"]?.arrayValue ?? []
        #expect(tools.compactMap { $0["name"]?.stringValue } == ["converse", "speak", "listen", "status"])
        let converse = tools.first
        #expect(converse?["inputSchema"]?["required"] == ["message"])
        let properties = converse?["inputSchema"]?["properties"]?.objectValue?.members.map(\.key)
        #expect(properties == ["message", "wait_for_response", "listen_timeout", "voice"])
    }

    @Test func aToolCallIsHandedOnWithItsArguments() {
        var session = Self.initialized()
        let action = session.lineReceived(Self.line(
            #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"converse","arguments":{"message":"Which file?","listen_timeout":12}}}"#
        ))
        #expect(action == .callTool(id: 7, .converse(message: "Which file?", waitForResponse: true, listenTimeout: 12, voice: nil)))
        let speak = session.lineReceived(Self.line(
            #"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"speak","arguments":{"message":"Done.","voice":"Cove"}}}"#
        ))
        #expect(speak == .callTool(id: 8, .converse(message: "Done.", waitForResponse: false, listenTimeout: 30, voice: "Cove")))
        #expect(session.lineReceived(Self.line(#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"listen"}}"#))
            == .callTool(id: 9, .listen(timeout: 30)))
    }

    @Test func badArgumentsComeBackAsAToolErrorInWords() {
        var session = Self.initialized()
        let answer = Self.sent(session.lineReceived(Self.line(
            #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"converse","arguments":{"message":"Hi","listen_timeout":0}}}"#
        )))
        #expect(answer?["result"]?["isError"] == true)
        #expect(answer?["result"]?["content"]?.arrayValue?.first?["text"] == "\"listen_timeout\" must be a number of seconds from 1 to 600.")
        let empty = Self.sent(session.lineReceived(Self.line(
            #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"speak","arguments":{"message":"  "}}}"#
        )))
        #expect(empty?["result"]?["content"]?.arrayValue?.first?["text"]?.stringValue?.hasPrefix("\"message\" must be the text to say") == true)
    }

    @Test func protocolMistakesGetJSONRPCErrors() {
        var fresh = Self.session()
        #expect(Self.sent(fresh.lineReceived(Self.line(#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#)))?["error"]?["code"] == -32600)
        #expect(Self.sent(fresh.lineReceived(Self.line(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)))?["result"] == [:])
        var session = Self.initialized()
        #expect(Self.sent(session.lineReceived(Self.line("not json")))?["error"]?["code"] == -32700)
        #expect(Self.sent(session.lineReceived(Self.line(#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#)))?["error"]?["code"] == -32600)
        #expect(Self.sent(session.lineReceived(Self.line(#"{"id":1,"method":"ping"}"#)))?["error"]?["code"] == -32600)
        let unknown = Self.sent(session.lineReceived(Self.line(#"{"jsonrpc":"2.0","id":5,"method":"resources/list"}"#)))
        #expect(unknown?["error"]?["code"] == -32601)
        #expect(unknown?["id"] == 5)
        let noTool = Self.sent(session.lineReceived(Self.line(#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"sing"}}"#)))
        #expect(noTool?["error"]?["code"] == -32602)
        #expect(noTool?["error"]?["message"] == "There is no tool \"sing\". The tools are: converse, speak, listen, status.")
    }

    @Test func notificationsGetNoAnswerAndACancellationIsPassedOn() {
        var session = Self.initialized()
        #expect(session.lineReceived(Self.line(#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#)) == .none)
        #expect(session.lineReceived(Self.line(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}"#)) == .cancel(id: 7))
    }

    @Test func aToolResultCarriesItsWordsAndWhetherItFailed() {
        let message = MCPSession.toolResult(id: "c", MCPToolResult(text: "Busy.", isError: true))
        #expect(message.jsonText == #"{"jsonrpc":"2.0","id":"c","result":{"content":[{"type":"text","text":"Busy."}],"isError":true}}"#)
    }
}
