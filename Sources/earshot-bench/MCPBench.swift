import EarshotBase
import EarshotHarness
import Foundation

/// `earshot-bench mcp [--rounds N] [FIXTURE]`: the MCP round trip as an agent sees it. `earshot
/// mcp` runs against the real daemon (embedded transcription and speech) on a private PulseAudio;
/// each round calls `converse` over stdio, plays the fixture into the virtual microphone once the
/// message has been said, and times the call until its transcript comes back:
///
/// - round trip: the tool call sent → its result read (the message said, the person's turn, the
///   end of turn and the transcript included);
/// - after the speech: the person's last speech sample (the `speech` `end`'s `t`, placed in wall
///   time by the `thinking` state's `wall`) → the result read: end-of-turn silence, the final
///   transcript, the MCP layer;
/// - MCP layer: the later of the turn's end (`thinking`) and its final `transcript` (their `wall`)
///   → the result read: the daemon's socket, `earshot mcp` and its stdout.
enum MCPBench {
    static let message = "Go ahead."

    static func run(rounds: Int, fixture: String) throws {
        guard PulseTestServer.isAvailable else {
            throw LiveBench.Failure(description: "pulseaudio, paplay and parec are needed (make deps installs them)")
        }
        let earshot = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("earshot").path
        guard FileManager.default.isExecutableFile(atPath: earshot) else {
            throw LiveBench.Failure(description: "earshot is not built next to earshot-bench (\(earshot))")
        }
        let signalSources = ChildGuard.install()
        defer { withExtendedLifetime(signalSources) {} }
        let session = try SpeechSession(
            daemonArguments: ["--stt", "embedded", "--tts", "embedded"], topics: ["state", "speech", "speaker", "transcript"]
        )
        let agent = try StdioAgent(executable: earshot, arguments: ["mcp", "--socket", session.sound.directory + "/earshot.sock"])
        defer { agent.stop() }
        _ = try agent.call("initialize", ["protocolVersion": "2025-06-18", "capabilities": [:], "clientInfo": ["name": "earshot-bench", "version": "1"]])
        try agent.notify("notifications/initialized")

        var roundTrips: [Double] = [], afterSpeech: [Double] = [], layer: [Double] = []
        for round in 1...rounds {
            session.clearEvents()
            let sent = now()
            let id = try agent.send("tools/call", ["name": "converse", "arguments": ["message": .string(message), "listen_timeout": 30]])
            guard session.wait(timeout: 30, for: { $0["event"] as? String == "speaker" && $0["phase"] as? String == "end" }) != nil else {
                throw LiveBench.Failure(description: "round \(round): the message was not said\n\(session.logTail)")
            }
            // The result is read while the fixture still plays (its trailing silence outlasts the end of the turn).
            let player = try session.sound.play(fixture)
            let result = try agent.response(to: id, timeout: 30)
            let received = now()
            _ = player.wait()
            let text = result["result"]?["content"]?.arrayValue?.first?["text"]?.stringValue ?? "\(result.jsonText)"
            guard result["result"]?["isError"] == false else {
                throw LiveBench.Failure(description: "round \(round): converse failed: \(text)\n\(session.logTail)")
            }
            let isFinal: ([String: Any]) -> Bool = { $0["event"] as? String == "transcript" && $0["final"] as? Bool == true }
            session.wait(timeout: 1, forState: "thinking")
            if !session.events.contains(where: isFinal) { session.wait(timeout: 1, for: isFinal) }
            let events = session.events
            let final = events.last(where: isFinal)
            let end = events.last { $0["event"] as? String == "speech" && $0["phase"] as? String == "end" }
            let thinking = events.last { $0["event"] as? String == "state" && $0["state"] as? String == "thinking" }
            roundTrips.append(received - sent)
            if let end, let thinking, let endTime = end["t"] as? Double, let thinkingTime = thinking["t"] as? Double,
                let thinkingWall = thinking["wall"] as? Double
            {
                // `thinking` is stamped with the wall time of its frame; the speech ended `t` apart from it in audio time.
                afterSpeech.append(received - (thinkingWall - (thinkingTime - endTime)))
                if let finalWall = final?["wall"] as? Double { layer.append(received - max(finalWall, thinkingWall)) }
            }
            print("round \(round): \(format(received - sent, 3)) s, \(text)")
        }
        print("")
        print("MCP converse round trip, \(rounds) rounds (message \"\(message)\", fixture \(fixture)):")
        print("| measure | median | min | max |")
        print("|---|---|---|---|")
        let measures = [
            ("round trip (call → transcript)", roundTrips), ("after the speech (its last sample → transcript)", afterSpeech),
            ("MCP layer (turn ended and final transcript → result)", layer),
        ]
        for (name, values) in measures where !values.isEmpty {
            let sorted = values.sorted()
            print("| \(name) | \(format(sorted[sorted.count / 2], 3)) s | \(format(sorted.first!, 3)) s | \(format(sorted.last!, 3)) s |")
        }
    }

    static func now() -> Double { Date().timeIntervalSince1970 }

    static func format(_ value: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", value) }
}

/// An MCP client over stdio, as simple as a benchmark needs: JSON-RPC lines to the child's stdin,
/// answers read from its stdout.
final class StdioAgent {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var lines = LineSplitter(maximumLength: 1 << 22)
    private var nextID = 1

    init(executable: String, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        ChildGuard.register(process.processIdentifier)
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        ChildGuard.unregister(process.processIdentifier)
    }

    func notify(_ method: String) throws {
        try write(["jsonrpc": "2.0", "method": .string(method)])
    }

    /// Sends a request; returns its id.
    func send(_ method: String, _ params: JSONObject) throws -> Int {
        let id = nextID
        nextID += 1
        try write(["jsonrpc": "2.0", "id": .integer(id), "method": .string(method), "params": .object(params)])
        return id
    }

    func call(_ method: String, _ params: JSONObject) throws -> JSONValue {
        try response(to: try send(method, params), timeout: 10)
    }

    /// The answer to request `id`, skipping anything else.
    func response(to id: Int, timeout: TimeInterval) throws -> JSONValue {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            while let line = lines.next() {
                guard case .line(let bytes) = line, let message = try? JSONParser.parse(bytes) else { continue }
                if message["id"]?.integerValue == id { return message }
            }
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else { throw LiveBench.Failure(description: "earshot mcp closed its output") }
            lines.append(Array(data))
        }
        throw LiveBench.Failure(description: "earshot mcp did not answer request \(id) within \(timeout) s")
    }

    private func write(_ message: JSONValue) throws {
        var bytes: [UInt8] = []
        message.write(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        try input.fileHandleForWriting.write(contentsOf: Data(bytes))
    }
}
