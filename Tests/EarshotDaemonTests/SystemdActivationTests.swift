import EarshotTestSupport
import Foundation
import Testing

/// earshotd as systemd runs it: socket activation, Type=notify readiness and status, watchdog
/// keep-alives that stop when capture is stuck, STOPPING=1. The test plays systemd's part: it
/// binds the socket, passes it, and reads the notifications.
@Suite(.serialized, .enabled(if: TestPeers.pulseAudio, "needs pulseaudio (make deps installs it)"), .tags(.live))
struct SystemdActivationTests {
    @Test func readyStatusKeepAlivesAndThePassedSocketServes() throws {
        let sound = try PulseTestServer()
        defer { sound.stop() }
        let daemon = try ActivatedDaemon(sound: sound, arguments: ["--stt", "none", "--listen"], watchdog: .seconds(1))
        let notifications = daemon.notifications

        let ready = notifications.wait(timeout: .seconds(15)) { $0.fields["READY"] == "1" }
        try #require(ready != nil, "no READY=1; earshotd's log:\n\(daemon.log)")
        #expect(ready?.fields["STATUS"] == "listening on mic")

        notifications.collect(for: .seconds(2))
        let keepAlives = notifications.messages(with: "WATCHDOG", value: "1").filter { $0.arrived > ready!.arrived }
        // Every half interval: four in two seconds, give or take one at the edges (or a late
        // wake-up on a busy machine).
        #expect((2...5).contains(keepAlives.count), "keep-alives: \(keepAlives.count)")

        let client = try LineSocket(path: daemon.socketPath)
        var events: [[String: Any]] = []
        let status = try client.request(#"{"id":1,"cmd":"status"}"#, events: &events)
        #expect(status["ok"] as? Bool == true)
        #expect((status["audio"] as? [String: Any])?["source"] as? String == "mic")
        #expect(daemon.log.contains("Serving the socket systemd passed"))

        daemon.process.signal(SIGTERM)
        let stopping = notifications.wait(timeout: .seconds(10)) { $0.fields["STOPPING"] == "1" }
        #expect(stopping?.fields["STATUS"] == "stopping")
        #expect(daemon.process.wait() == 0, "earshotd's log:\n\(daemon.log)")
        // The socket is systemd's: the daemon leaves it (and makes no lock file).
        #expect(FileManager.default.fileExists(atPath: daemon.socketPath))
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath + ".lock"))
    }

    @Test func idleUntilAFrontEndStartsVoiceMode() throws {
        let sound = try PulseTestServer()
        defer { sound.stop() }
        let daemon = try ActivatedDaemon(sound: sound, arguments: ["--stt", "none"], watchdog: nil)
        let ready = daemon.notifications.wait(timeout: .seconds(15)) { $0.fields["READY"] == "1" }
        #expect(ready?.fields["STATUS"] == "idle (voice mode off); socket \(daemon.socketPath)", "earshotd's log:\n\(daemon.log)")

        let client = try LineSocket(path: daemon.socketPath)
        var events: [[String: Any]] = []
        _ = try client.request(#"{"id":1,"cmd":"start"}"#, events: &events)
        let listening = daemon.notifications.wait(timeout: .seconds(5)) { $0.fields["STATUS"] == "listening on mic" }
        #expect(listening != nil)
        // No WatchdogSec=: no keep-alives.
        #expect(daemon.notifications.messages(with: "WATCHDOG").isEmpty)
    }

    @Test func aStuckCaptureStopsTheKeepAlivesUntilAudioFlowsAgain() throws {
        let sound = try PulseTestServer()
        defer { sound.stop() }
        let daemon = try ActivatedDaemon(sound: sound, arguments: ["--stt", "none", "--listen"], watchdog: .seconds(1))
        let notifications = daemon.notifications
        try #require(notifications.wait(timeout: .seconds(15)) { $0.fields["READY"] == "1" } != nil, "earshotd's log:\n\(daemon.log)")
        try #require(notifications.wait(timeout: .seconds(2)) { $0.fields["WATCHDOG"] == "1" } != nil)

        // A frozen sound server keeps the connection but delivers no frames: capture is stuck.
        let server = try #require(sound.pid)
        kill(server, SIGSTOP)
        defer { kill(server, SIGCONT) }
        let stuck = try #require(
            notifications.wait(timeout: .seconds(5)) { $0.fields["STATUS"]?.hasPrefix("stuck") == true },
            "no stuck status; earshotd's log:\n\(daemon.log)"
        )
        #expect(stuck.fields["STATUS"] == "stuck: no audio from mic for over 1.0 s")
        // Four keep-alives would be due in two seconds: none comes.
        notifications.collect(for: .seconds(2))
        let lateKeepAlives = notifications.messages(with: "WATCHDOG", value: "1").filter { $0.arrived > stuck.arrived }
        #expect(lateKeepAlives.isEmpty, "keep-alives after the stall: \(lateKeepAlives.count)")
        let stalls = daemon.log.split(separator: "\n").filter { $0.contains("the audio loop is stuck") }
        #expect(stalls.count == 1, "earshotd's log:\n\(daemon.log)")

        kill(server, SIGCONT)
        let resumed = notifications.wait(timeout: .seconds(5)) { $0.fields["WATCHDOG"] == "1" }
        #expect(resumed != nil, "no keep-alive after the server thawed; earshotd's log:\n\(daemon.log)")
        notifications.collect(for: .milliseconds(500))
        #expect(notifications.messages(with: "STATUS").last?.fields["STATUS"] == "listening on mic")
        #expect(daemon.log.contains("flows again; watchdog keep-alives resume"))
    }

    @Test func moreThanOnePassedSocketIsRefusedInWords() throws {
        let sound = try PulseTestServer()
        defer { sound.stop() }
        let daemon = try ActivatedDaemon(sound: sound, arguments: ["--stt", "none"], watchdog: nil, sockets: 2)
        #expect(daemon.process.wait() != 0)
        #expect(daemon.log.contains("systemd passed 2 sockets, but earshotd serves exactly one"), "earshotd's log:\n\(daemon.log)")
    }
}
