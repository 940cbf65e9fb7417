import EarshotAudio
import EarshotOpus
import EarshotTestSupport
import Foundation
import Testing

/// Privacy, live: without `--debug-turns` no audio reaches the disk; with it, exactly the last N
/// turns are kept as Ogg Opus with their details; `forget` deletes every recording and nothing else.
@Suite(.serialized, .enabled(if: TestPeers.pulseAudio, "needs pulseaudio (make deps installs it)"))
struct LivePrivacyTests {
    static let request = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/speech/one_request_slt.wav").path
    /// Where the request's speech runs in the fixture (`earshot replay`): its audio from 0.55 s.
    static let requestAudioStart = 0.55

    /// Sends `line` on a fresh connection and returns the response.
    static func request(_ socket: String, _ line: String) throws -> [String: Any] {
        var ignored: [[String: Any]] = []
        return try LineSocket(path: socket).request(line, events: &ignored)
    }

    static func subscribe(_ socket: String) throws -> LineSocket {
        let client = try LineSocket(path: socket)
        var ignored: [[String: Any]] = []
        let response = try client.request(#"{"id":"sub","cmd":"subscribe","topics":["state","speech","transcript"]}"#, events: &ignored)
        guard response["ok"] as? Bool == true else { throw LineSocket.Failure(description: "subscribe failed: \(response)") }
        return client
    }

    /// Plays the request into the microphone and returns the events of its turn, up to the
    /// return to `listening` after the turn (after the reply, when one is spoken).
    static func oneTurn(_ sound: PulseTestServer, _ client: LineSocket, replied: Bool) throws -> [[String: Any]] {
        let player = try sound.play(request)
        var events = client.events(timeout: 30) { $0["event"] as? String == "speech" && $0["phase"] as? String == "end" }
        if replied {
            events += client.events(timeout: 30) { $0["event"] as? String == "state" && $0["state"] as? String == "speaking" }
        }
        events += client.events(timeout: 30) { $0["event"] as? String == "state" && $0["state"] as? String == "listening" }
        _ = player.wait()
        return events
    }

    static func mode(_ path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return -1 }
        return Int(info.st_mode & 0o777)
    }

    // MARK: (a) nothing on disk by default

    struct Untouched: Sendable {
        var speechEvents: Int
        var whileRunning: [String]
        var afterStopping: [String]
        var lockBytes: Int
        var recording: [String: String]
    }

    static func turnWithRecordingOff() throws -> Untouched {
        let sound = try PulseTestServer()
        defer { sound.stop() }
        let home = try PrivateHome()
        let daemon = try home.startDaemon(sound, ["--listen", "--stt", "none", "--tts", "none"])
        let client = try subscribe(home.socketPath)
        let events = try oneTurn(sound, client, replied: false)
        let status = try request(home.socketPath, #"{"id":1,"cmd":"status"}"#)
        let whileRunning = home.files()
        _ = daemon.terminate()
        return Untouched(
            speechEvents: events.filter { $0["event"] as? String == "speech" }.count,
            whileRunning: whileRunning, afterStopping: home.files(),
            lockBytes: FileManager.default.contents(atPath: home.socketPath + ".lock")?.count ?? -1,
            recording: ((status["recording"] as? [String: Any]) ?? [:]).mapValues { "\($0)" }
        )
    }

    @Test func byDefaultAWholeTurnWritesNoFileAnywhere() async throws {
        let run = try await onDedicatedThread { try Self.turnWithRecordingOff() }
        #expect(run.speechEvents == 2, "the turn was heard (a start and an end)")
        // Nothing in HOME or any XDG directory but the socket and the empty lock file that keeps
        // a second daemon off it (which stays, by design, when the daemon stops).
        #expect(run.whileRunning == ["run/earshot/earshot.sock", "run/earshot/earshot.sock.lock"])
        #expect(run.afterStopping == ["run/earshot/earshot.sock.lock"])
        #expect(run.lockBytes == 0)
        #expect(run.recording["debug_turns"] == "0")
        #expect(run.recording["kept"] == "0")
        #expect(run.recording["directory"]?.hasSuffix("/home/.local/state/earshot/recordings") == true, "\(run.recording)")
    }
}
