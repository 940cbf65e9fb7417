import EarshotSpeech
import Testing

@Suite struct OpenAIChatStreamReaderTests {
    static func chunk(_ content: String?, finish: String? = nil) -> String {
        let delta = content.map { "{\"content\":\"\($0)\"}" } ?? "{}"
        let reason = finish.map { "\"\($0)\"" } ?? "null"
        return "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":\(delta),\"finish_reason\":\(reason)}]}\n\n"
    }

    static let whole = "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n"
        + chunk("Hello") + chunk(" there.") + chunk(" Bye") + chunk(nil, finish: "stop") + "data: [DONE]\n\n"

    @Test func wordsArriveAsTheirEventsComplete() throws {
        var reader = OpenAIChatStreamReader()
        #expect(try reader.read(Array(Self.chunk("Hel").utf8)) == "Hel")
        #expect(try reader.read(Array(Self.chunk("lo").utf8).prefix(20)) == "")
        #expect(try reader.read(Array(Self.chunk("lo").utf8).dropFirst(20)) == "lo")
        #expect(reader.finishReason == nil)
        #expect(throws: OpenAIChatStreamError.cutOff) { try reader.finish() }
    }

    /// However the body is cut, the words add up to the reply, and it ends whole.
    @Test(arguments: [1, 2, 3, 7, 50, 1000])
    func piecesCutAnywhereGiveTheSameReply(_ size: Int) throws {
        var reader = OpenAIChatStreamReader()
        let bytes = Array(Self.whole.utf8)
        var words = ""
        for start in stride(from: 0, to: bytes.count, by: size) {
            words += try reader.read(bytes[start..<min(start + size, bytes.count)])
        }
        try reader.finish()
        #expect(words == "Hello there. Bye")
        #expect(reader.finishReason == "stop")
        #expect(reader.isDone)
    }

    @Test func nothingAfterDoneCounts() throws {
        var reader = OpenAIChatStreamReader()
        #expect(try reader.read(Array((Self.chunk("a") + "data: [DONE]\n\n" + Self.chunk("b")).utf8)) == "a")
        #expect(try reader.read(Array(Self.chunk("c").utf8)) == "")
        try reader.finish()
    }

    @Test func aFinishReasonWithoutDoneIsAWholeReply() throws {
        var reader = OpenAIChatStreamReader()
        #expect(try reader.read(Array((Self.chunk("a") + Self.chunk(nil, finish: "length")).utf8)) == "a")
        try reader.finish()
        #expect(reader.finishReason == "length")
    }

    @Test func anErrorEventFailsWithTheServersMessage() {
        var reader = OpenAIChatStreamReader()
        #expect(throws: OpenAIChatStreamError.failed("The model crashed.")) {
            try reader.read(Array((Self.chunk("a") + "data: {\"error\":{\"message\":\"The model crashed.\"}}\n\n").utf8))
        }
    }

    @Test func commentsKeepAlivesAndUsageChunksSayNothing() throws {
        var reader = OpenAIChatStreamReader()
        let body = ": keep-alive\n\n" + "data: {\"choices\":[],\"usage\":{\"total_tokens\":3}}\n\n" + "data: not json\n\n" + Self.chunk("x")
        #expect(try reader.read(Array(body.utf8)) == "x")
    }

    @Test func anOversizedEventIsRefused() {
        var reader = OpenAIChatStreamReader(maximumEventBytes: 64)
        #expect(throws: OpenAIChatStreamError.self) { try reader.read(Array(Self.chunk(String(repeating: "a", count: 100)).utf8)) }
    }

    @Test func eventsReadAsTheAPIShapesThem() {
        #expect(OpenAIChatEvent(ServerSentEvent(data: "[DONE]")) == .done)
        #expect(OpenAIChatEvent(ServerSentEvent(data: "{\"choices\":[{\"delta\":{\"content\":\"Hi\"},\"finish_reason\":null}]}")) == .chunk(content: "Hi", finishReason: nil))
        #expect(OpenAIChatEvent(ServerSentEvent(data: "{\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}")) == .chunk(content: "", finishReason: "stop"))
        #expect(OpenAIChatEvent(ServerSentEvent(type: "error", data: "{\"message\":\"overloaded\"}")) == .failed("overloaded"))
        #expect(OpenAIChatEvent(ServerSentEvent(data: "[1,2]")) == nil)
    }

    @Test func theRequestAsksForAStreamWithTheWholeConversation() {
        let request = OpenAIChatRequest(model: "llama3.2", messages: [.init(.system, "Be brief."), .init(.user, "Hi \"you\"")])
        #expect(String(decoding: request.body, as: UTF8.self)
            == #"{"model":"llama3.2","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi \"you\""}],"stream":true}"#)
    }

    @Test func aNonStreamedAnswerGivesItsContent() {
        #expect(OpenAIChatResponse.content(in: Array(#"{"choices":[{"message":{"role":"assistant","content":"Hello."}}]}"#.utf8)) == "Hello.")
        #expect(OpenAIChatResponse.content(in: Array("{}".utf8)) == nil)
    }
}
