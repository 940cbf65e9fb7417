import EarshotTestSupport
import Foundation
import Testing

/// The embedded engines in the real daemon: nothing loaded until someone speaks, the model
/// loaded for the utterance, everything released after the configured idle time.
@Suite(.serialized, .enabled(if: TestPeers.pulseAudio, "needs pulseaudio (make deps installs it)"), .tags(.live))
struct LiveEngineMemoryTests {
    static let request = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/speech/one_request_slt.wav").path

    struct Run: Sendable {
        var idleKilobytes: Int
        var conversingKilobytes: Int
        var releasedKilobytes: Int
        var timeline: [String]
        var log: String
    }

    static func converseThenIdle() throws -> Run {
        let responder = #"read line; echo "You asked me to $line.""#
        let session = try LiveSession(arguments: [
            "--listen", "--stt", "embedded", "--tts", "embedded", "--responder", responder,
            "--stt-unload-after", "1", "--tts-unload-after", "1",
        ])
        let pid = session.daemon.pid
        let client = try session.subscribedClient(topics: ["state", "transcript"])
        Thread.sleep(forTimeInterval: 0.5)
        let idle = ProcessTable.residentKilobytes(of: pid) ?? 0
        let player = try session.sound.play(request)
        var events = client.events(timeout: 30) { event in
            event["event"] as? String == "transcript" && event["final"] as? Bool == true
        }
        // Within the idle time of the utterance's end: the model is still loaded.
        let conversing = ProcessTable.residentKilobytes(of: pid) ?? 0
        events += client.events(timeout: 30) { event in
            event["event"] as? String == "state" && event["state"] as? String == "listening"
        }
        _ = player.wait()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !(session.daemon.log.contains("pocketsphinx model released") && session.daemon.log.contains("flite released")) {
            Thread.sleep(forTimeInterval: 0.1)
        }
        let released = ProcessTable.residentKilobytes(of: pid) ?? 0
        let timeline = events.compactMap { event -> String? in
            switch event["event"] as? String {
            case "state": event["state"] as? String
            case "transcript" where event["final"] as? Bool == true: "final: \(event["text"] as? String ?? "")"
            default: nil
            }
        }
        return Run(idleKilobytes: idle, conversingKilobytes: conversing, releasedKilobytes: released, timeline: timeline, log: session.daemon.log)
    }

    @Test func theEnginesLoadForAConversationAndAreReleasedWhenIdle() async throws {
        let run = try await onDedicatedThread { try Self.converseThenIdle() }
        print("earshotd RSS: \(run.idleKilobytes / 1024) MB before speaking, \(run.conversingKilobytes / 1024) MB after a "
            + "conversation, \(run.releasedKilobytes / 1024) MB once the engines were released")
        // The final comes before the decision where the eager end had it ready, after it otherwise.
        let ending = Array(run.timeline.suffix(4))
        #expect(Set(ending.prefix(2)) == ["thinking", "final: turn on the kitchen lights"], "\(run.timeline)")
        #expect(ending.suffix(2) == ["speaking", "listening"], "\(run.timeline)")
        for line in ["pocketsphinx model loaded in", "flite loaded in", "pocketsphinx model released after 1 s idle", "flite released after 1 s idle"] {
            #expect(run.log.contains(line), "no \"\(line)\" in the log:\n\(run.log)")
        }
        // The model is about 65 MB: before the first utterance and after its release, none of it is there.
        #expect(run.conversingKilobytes - run.idleKilobytes > 40_000)
        #expect(run.conversingKilobytes - run.releasedKilobytes > 40_000)
    }
}
