import EarshotTestSupport
import Foundation
import Testing

/// Debug recording onto a full disk: the daemon's state directory is a 24 KiB tmpfs of its own
/// (`unshare --mount --map-root-user`, so no privilege is needed). Writing fails with ENOSPC; the
/// daemon says so in words and goes on with the conversation.
@Suite(.serialized, .enabled(if: TestPeers.pulseAudio, "needs pulseaudio (make deps installs it)"), .tags(.live))
struct LiveDiskFullTests {
    struct Run: Sendable {
        var completedTurns: Int
        var log: String
        var answeredAfter: Bool
    }

    static func recordOntoAFullDisk() throws -> Run {
        let sound = try PulseTestServer()
        defer { sound.stop() }
        let home = try PrivateHome()
        let state = home.home + "/.local/state/earshot"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let mountThenRun = #"mount -t tmpfs -o size=24k,mode=0700 tmpfs "$0" && exec "$@""#
        let daemon = try home.startDaemon(
            sound, ["--listen", "--stt", "none", "--tts", "none", "--debug-turns", "5"],
            launcher: ["/usr/bin/unshare", "--mount", "--map-root-user", "/bin/sh", "-c", mountThenRun, state]
        )
        defer { _ = daemon.terminate() }
        let client: LineSocket
        do {
            client = try LivePrivacyTests.subscribe(home.socketPath)
        } catch {
            throw LineSocket.Failure(description: "\(error); the daemon's log:\n\(home.log().suffix(3000))")
        }
        var completed = 0
        for _ in 0..<5 {
            let events = try LivePrivacyTests.oneTurn(sound, client, replied: false)
            if events.contains(where: { $0["event"] as? String == "state" && $0["state"] as? String == "listening" }) { completed += 1 }
        }
        let status = try? LivePrivacyTests.request(home.socketPath, #"{"id":1,"cmd":"status"}"#)
        let exited = daemon.isRunning ? "" : "\nearshotd exited with status \(daemon.wait())"
        return Run(completedTurns: completed, log: home.log() + exited, answeredAfter: status?["ok"] as? Bool == true)
    }

    @Test func aFullDiskIsSaidInWordsAndTheConversationGoesOn() async throws {
        let run = try await onDedicatedThread { try Self.recordOntoAFullDisk() }
        #expect(run.completedTurns == 5, "\(run.log.suffix(3000))")
        #expect(run.log.contains("No space left on device"), "\(run.log.suffix(3000))")
        #expect(run.log.contains("could not be written"), "\(run.log.suffix(3000))")
        #expect(run.answeredAfter)
    }
}
