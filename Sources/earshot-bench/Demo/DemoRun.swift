import EarshotHarness
import Foundation

/// One run of the demo: starts the private sound server and the daemon, plays the recording,
/// narrates the daemon's events, and cleans up.
struct DemoRun {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let defaultRecording = "Tests/Fixtures/conversation/barge_in.wav"
    static let defaultResponder = "Tests/Fixtures/conversation/responder.sh"

    var recording: String
    var responder: String

    func run() throws {
        guard FileManager.default.fileExists(atPath: recording) else {
            throw Failure(description: "there is no recording at \(recording) (run from the repository's top directory)")
        }
        guard FileManager.default.isReadableFile(atPath: responder) else {
            throw Failure(description: "there is no responder script at \(responder)")
        }
        guard PulseTestServer.isAvailable else {
            throw Failure(description: "pulseaudio, pactl, paplay and parec are needed: `make deps` installs them")
        }
        let daemonBinary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("earshotd").path
        guard FileManager.default.isExecutableFile(atPath: daemonBinary) else {
            throw Failure(description: "earshotd is not built next to earshot-bench (\(daemonBinary)); run `make demo`")
        }

        let sound = try PulseTestServer()
        defer { sound.stop() }
        print("A private PulseAudio is running in \(sound.directory): a virtual microphone (mic) and a speaker.")
        let socketPath = sound.directory + "/earshot.sock"
        let daemonArguments = [
            "--socket", socketPath, "--listen", "--stt", "embedded", "--tts", "embedded",
            "--responder", "/bin/sh " + Self.quoted(responder),
        ]
        print("Starting earshotd \(daemonArguments.joined(separator: " "))")
        let daemon = try ChildProcess(
            daemonBinary, daemonArguments, environment: sound.environment, outputPath: sound.directory + "/earshotd.log"
        )
        defer { _ = daemon.terminate() }
        let client = try Self.connect(to: socketPath, daemon: daemon, log: sound.directory + "/earshotd.log")

        // Wait for listening before the person starts talking (with --listen it may already be).
        var narrator = DemoNarrator()
        var events: [[String: Any]] = []
        _ = try client.request(#"{"id":1,"cmd":"subscribe","topics":["state","speech","transcript","speaker","error"]}"#, events: &events)
        let initial = try client.request(#"{"id":2,"cmd":"status"}"#, events: &events)
        var listening = (initial["state"] as? [String: Any])?["state"] as? String == "listening"
        for event in events { narrator.narrate(event) }
        if !listening {
            let more = client.events(timeout: 15) { event in
                narrator.narrate(event)
                return event["event"] as? String == "state" && event["state"] as? String == "listening"
            }
            listening = more.contains { $0["state"] as? String == "listening" }
        }
        guard listening else {
            throw Failure(description: "earshotd did not start listening; its log:\n" + Self.tail(of: sound.directory + "/earshotd.log"))
        }
        narrator.narrate(["event": "state", "state": "listening"])
        print("Playing \(recording) into the microphone; the conversation as earshotd hears it:\n")
        let speaker = try sound.record(from: "speaker.monitor")
        let player = try sound.play(recording)
        narrator.startClock()

        // Narrate until the recording has ended and the assistant has had its last word.
        let deadline = Date().addingTimeInterval(90)
        var quietSince: Date?
        while Date() < deadline {
            if let line = client.readLine(timeout: 0.2),
               let event = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] {
                narrator.narrate(event)
            }
            if player.isRunning || narrator.phase != "listening" {
                quietSince = nil
            } else if quietSince == nil {
                quietSince = Date()
            } else if let since = quietSince, Date().timeIntervalSince(since) > 2 {
                break
            }
        }
        _ = player.terminate()
        let spoken = SpokenAudio(samples: speaker.stop())
        try client.send(#"{"id":3,"cmd":"dismiss"}"#)
        _ = client.events(timeout: 1) { $0["ok"] != nil }
        print("")
        print(spoken.summary)
        print("earshotd's log: \(sound.directory)/earshotd.log (removed with the private server now).")
        let status = daemon.terminate()
        print(status == 0 ? "earshotd stopped cleanly." : "earshotd exited with status \(status).")
    }

    private static func connect(to path: String, daemon: ChildProcess, log: String) throws -> LineSocket {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let socket = try? LineSocket(path: path) { return socket }
            guard daemon.isRunning else { break }
            usleep(50_000)
        }
        throw Failure(description: "earshotd did not open its socket; its log:\n" + tail(of: log))
    }

    private static func tail(of path: String) -> String {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(15).joined(separator: "\n")
    }

    private static func quoted(_ path: String) -> String {
        "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
