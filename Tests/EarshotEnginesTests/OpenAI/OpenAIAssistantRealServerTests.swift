import EarshotBase
import EarshotEngines
import EarshotSpeech
import EarshotTestSupport
import Foundation
import Testing

/// The assistant against a real OpenAI-compatible chat server on loopback
/// (`Tests/Peers/openai_chat_server.py`: scripted replies at a set pace, and the faults of a
/// real deployment; the official `openai` client checks its shapes in
/// `officialClientAgreesWithTheChatServer`).
@Suite(.serialized, .enabled(if: TestPeers.openAI, "needs the OpenAI-compatible test server's packages (make peers)"), .tags(.live))
struct OpenAIAssistantRealServerTests {
    static func start(_ options: [String] = []) async throws -> (SpeechServerProcess, OpenAIEndpoint) {
        let server = try await onDedicatedThread { try SpeechServerProcess(.openAIChat(options)) }
        return (server, try OpenAIEndpoint(parsing: server.uri))
    }

    static func assistant(
        _ endpoint: OpenAIEndpoint, model: String = "earshot-test", key: String? = nil,
        timeouts: OpenAITimeouts = OpenAITimeouts(response: .seconds(5), idle: .seconds(2))
    ) -> OpenAIAssistant {
        OpenAIAssistant(
            client: OpenAIChatClient(endpoint: endpoint, model: model, apiKey: key.map(OpenAIAPIKey.init), timeouts: timeouts),
            instructions: "Be brief.", maximumTurns: 4
        )
    }

    /// The pieces of a reply and, when it failed, the failure.
    static func collect(_ stream: AsyncThrowingStream<String, any Error>) async -> (pieces: [String], failure: ReplyFailure?) {
        var pieces: [String] = []
        do {
            for try await piece in stream { pieces.append(piece) }
            return (pieces, nil)
        } catch {
            return (pieces, error as? ReplyFailure)
        }
    }

    /// The JSON bodies the server received, in order.
    static func requests(_ log: String) -> [JSONValue] {
        fileText(log).split(separator: "\n").compactMap { try? JSONParser.parse(Array($0.utf8)) }
    }

    @Test func officialClientAgreesWithTheChatServer() async throws {
        let (server, endpoint) = try await Self.start(["--api-key", "test-key", "--rate-limited-requests", "1"])
        defer { server.stop() }
        let checker = URL(fileURLWithPath: SpeechServerProcess.openAIChatServerScript).deletingLastPathComponent()
            .appendingPathComponent("check_openai_chat_peer.py").path
        let outputPath = server.directory + "/checker.log"
        let status = try await onDedicatedThread {
            try ChildProcess(
                SpeechServerProcess.venvPath + "/bin/python", [checker, endpoint.baseURL, "test-key"],
                environment: ProcessInfo.processInfo.environment, outputPath: outputPath
            ).wait()
        }
        let output = fileText(outputPath)
        #expect(status == 0, "\(output)\n\(server.logTail)")
        #expect(output.contains("all checks passed"), "\(output)")
    }

    /// At 5 tokens a second the reply takes over two seconds to write; its first sentence comes
    /// after its fourth token.
    @Test func theFirstSentenceComesWhileTheModelStillWrites() async throws {
        let (server, endpoint) = try await Self.start([
            "--reply", "It is sunny today. Tomorrow brings **rain** in the north, and wind along the coast.",
            "--first-token-ms", "200", "--tokens-per-second", "5",
        ])
        defer { server.stop() }
        let asked = ContinuousClock.now
        var arrivals: [(String, Duration)] = []
        for try await piece in Self.assistant(endpoint).respond(turn: 1, transcript: "what is the weather") {
            arrivals.append((piece, ContinuousClock.now - asked))
        }
        #expect(arrivals.map(\.0) == ["It is sunny today.", "Tomorrow brings rain in the north, and wind along the coast."])
        let first = try #require(arrivals.first?.1), last = try #require(arrivals.last?.1)
        #expect(first < .milliseconds(1_500), "first sentence after \(first)")
        #expect(last - first > .seconds(1), "first \(first), last \(last)")
    }

    /// A long first sentence starts at its first clause, long before the model ends it.
    @Test func aLongFirstSentenceStartsAtItsFirstClause() async throws {
        let (server, endpoint) = try await Self.start([
            "--reply", "Tomorrow will be sunny and warm in the morning, with a high of twenty four degrees, and a light breeze from the west in the afternoon.",
            "--tokens-per-second", "10",
        ])
        defer { server.stop() }
        let asked = ContinuousClock.now
        var arrivals: [(String, Duration)] = []
        for try await piece in Self.assistant(endpoint).respond(turn: 1, transcript: "weather") {
            arrivals.append((piece, ContinuousClock.now - asked))
        }
        #expect(arrivals.map(\.0) == [
            "Tomorrow will be sunny and warm in the morning,",
            "with a high of twenty four degrees, and a light breeze from the west in the afternoon.",
        ])
        let first = try #require(arrivals.first?.1), last = try #require(arrivals.last?.1)
        #expect(last - first > .milliseconds(800), "first \(first), last \(last)")
    }

    /// A short opening clause is said alone too: the answer starts after its first two tokens.
    @Test func aShortOpeningClauseIsSaidWhileTheModelWritesOn() async throws {
        let (server, endpoint) = try await Self.start(["--reply", "Sure, I can help with that. Tell me more.", "--tokens-per-second", "10"])
        defer { server.stop() }
        let pieces = await Self.collect(Self.assistant(endpoint).respond(turn: 1, transcript: "help")).pieces
        #expect(pieces == ["Sure,", "I can help with that.", "Tell me more."])
    }

    @Test func theNextRequestCarriesOnlyWhatWasHeard() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("earshot-chat-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let (server, endpoint) = try await Self.start(["--reply", "One. Two. Three.", "--requests-log", log])
        defer { server.stop() }
        let assistant = Self.assistant(endpoint)
        let first = await Self.collect(assistant.respond(turn: 1, transcript: "count to three"))
        #expect(first.pieces == ["One.", "Two.", "Three."])
        assistant.heard(turn: 1, text: "One. Two")
        _ = await Self.collect(assistant.respond(turn: 2, transcript: "go on"))
        let requests = Self.requests(log)
        try #require(requests.count == 2, "\(requests)")
        let messages = requests[1]["messages"]?.arrayValue ?? []
        #expect(messages.map { $0["role"]?.stringValue ?? "" } == ["system", "user", "assistant", "user"])
        #expect(messages.map { $0["content"]?.stringValue ?? "" } == ["Be brief.", "count to three", "One. Two", "go on"])
        #expect(requests[1]["stream"] == .bool(true))
        assistant.forget()
        _ = await Self.collect(assistant.respond(turn: 3, transcript: "again"))
        #expect(Self.requests(log).last?["messages"]?.arrayValue?.count == 2)
    }

    @Test func aServerThatIsNotThereIsNamedInTheNotice() async throws {
        let port = try SocketProbe.freeLoopbackPort()
        let endpoint = try OpenAIEndpoint(parsing: "openai+http://127.0.0.1:\(port)/v1")
        let (pieces, failure) = await Self.collect(Self.assistant(endpoint).respond(turn: 1, transcript: "hello"))
        #expect(pieces.isEmpty)
        #expect(failure?.notice == "I can't reach the assistant at 127.0.0.1:\(port).")
        #expect(failure?.message.hasPrefix("The OpenAI-compatible chat server at http://127.0.0.1:\(port)/v1 is not answering") == true, "\(String(describing: failure))")
    }

    /// A turn within the server's `Retry-After` is not sent: the person hears how long is left.
    @Test func noRequestIsSentBeforeTheServersRetryAfter() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("earshot-chat-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let (server, endpoint) = try await Self.start(["--rate-limited-requests", "1", "--retry-after", "30", "--requests-log", log])
        defer { server.stop() }
        let assistant = Self.assistant(endpoint)
        let first = await Self.collect(assistant.respond(turn: 1, transcript: "hello"))
        #expect(first.failure?.notice == "The assistant is busy; try again in 30 seconds.", "\(String(describing: first.failure))")
        let second = await Self.collect(assistant.respond(turn: 2, transcript: "hello again"))
        #expect(second.pieces.isEmpty)
        #expect(second.failure?.notice.hasPrefix("The assistant is busy; try again in ") == true, "\(String(describing: second.failure))")
        #expect(Self.requests(log).count == 1, "the second turn was sent within the Retry-After")
        #expect(assistant.messages(asking: "next").count == 3, "only the first turn is remembered")
    }

    @Test(arguments: [
        (["--api-key", "right"], "earshot-test", "refused the API key."),
        ([], "no-such-model", "has no model called no-such-model."),
        (["--rate-limited-requests", "5", "--retry-after", "3"], "earshot-test", "The assistant is busy; try again in 3 seconds."),
        (["--status", "503", "--retry-after", "2"], "earshot-test", "The assistant failed; try again in 2 seconds."),
    ])
    func anErrorStatusIsSaidInWords(_ options: [String], _ model: String, _ notice: String) async throws {
        let (server, endpoint) = try await Self.start(options)
        defer { server.stop() }
        let (pieces, failure) = await Self.collect(Self.assistant(endpoint, model: model, key: "wrong").respond(turn: 1, transcript: "hello"))
        #expect(pieces.isEmpty)
        #expect(failure?.notice.hasSuffix(notice) == true, "\(String(describing: failure))")
        #expect(failure?.message.contains(endpoint.baseURL) == true)
        #expect(failure?.message.contains("wrong") == false, "the key must never be shown")
    }

    @Test(arguments: [
        ("--cut-after-tokens", "The assistant's answer was cut off."),
        ("--error-after-tokens", "The assistant failed; try again."),
        ("--stall-after-tokens", "is not answering."),
    ])
    /// Paced as a model writes: when a connection breaks, the client may drop what it had
    /// received but not yet handed on, so words sent in the same instant as the break can be lost.
    func aReplyBrokenMidStreamKeepsWhatCameAndSaysSo(_ fault: String, _ notice: String) async throws {
        let (server, endpoint) = try await Self.start(["--reply", "First sentence here. Second one is lost.", fault, "5", "--tokens-per-second", "20"])
        defer { server.stop() }
        let timeouts = OpenAITimeouts(response: .seconds(5), idle: .milliseconds(500))
        let (pieces, failure) = await Self.collect(Self.assistant(endpoint, timeouts: timeouts).respond(turn: 1, transcript: "hi"))
        #expect(pieces.first == "First sentence here.", "\(pieces)")
        #expect(!pieces.joined().contains("lost"))
        #expect(failure?.notice.hasSuffix(notice) == true, "\(String(describing: failure))")
    }

    @Test func aServerKilledMidReplyFailsAndTheNextTurnTriesAgain() async throws {
        let reply = "One two. Three four five six seven eight nine ten."
        let (server, endpoint) = try await Self.start(["--reply", reply, "--tokens-per-second", "4"])
        defer { server.stop() }
        let assistant = Self.assistant(endpoint)
        var pieces = assistant.respond(turn: 1, transcript: "count").makeAsyncIterator()
        // Killed once the reply is surely under way: its first sentence has come.
        #expect(try await pieces.next() == "One two.")
        server.kill()
        var failure: ReplyFailure?
        do {
            while try await pieces.next() != nil {}
        } catch {
            failure = error as? ReplyFailure
        }
        #expect(failure?.notice == "The assistant's answer was cut off.", "\(String(describing: failure))")
        try await onDedicatedThread { try server.restart() }
        let (again, failedAgain) = await Self.collect(assistant.respond(turn: 2, transcript: "count"))
        #expect(failedAgain == nil)
        #expect(again.joined(separator: " ") == reply)
    }

    @Test func cancellingTheReplyDropsTheRequestAtOnce() async throws {
        let (server, endpoint) = try await Self.start(["--reply", "One. Two three four five six seven eight.", "--tokens-per-second", "2"])
        defer { server.stop() }
        let consumer = Task {
            var pieces: [String] = []
            for try await piece in Self.assistant(endpoint).respond(turn: 1, transcript: "count") { pieces.append(piece) }
            return pieces
        }
        try await Task.sleep(for: .milliseconds(300))
        let cancelled = ContinuousClock.now
        consumer.cancel()
        let outcome = await consumer.result
        #expect(ContinuousClock.now - cancelled < .milliseconds(200))
        if case .success(let pieces) = outcome { #expect(pieces.count < 2, "\(pieces)") }
        // The connection is gone: the server's next token, half a second on, finds it closed.
        var dropped = false
        for _ in 0..<30 where !dropped {
            try await Task.sleep(for: .milliseconds(100))
            dropped = fileText(server.logPath).contains("BrokenPipeError") || fileText(server.logPath).contains("ConnectionResetError")
        }
        #expect(dropped, "\(server.logTail)")
    }
}
