import EarshotTestSupport
import Foundation
import Testing

/// `earshot mcp` driven by the official MCP Python SDK (`Tests/Peers/check_mcp_peer.py`), as two
/// coding agents would, against the real daemon on a private PulseAudio: `converse` says its
/// message through the speaker and returns the transcript of a fixture said into the microphone;
/// a second agent is busy meanwhile; silence times out; the person's stop and dismiss are
/// reported; no daemon is an error in words.
@Suite(
    .serialized,
    .tags(.live),
    .enabled(
        if: TestPeers.pulseAudio && TestPeers.mcp && TestPeers.product("earshot"),
        "needs pulseaudio, the MCP Python SDK in .venv and the built earshot (make test provides them)"
    )
)
struct LiveMCPTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/speech/one_request_slt.wav").path
    static let checker = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Peers/check_mcp_peer.py").path

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    struct Run {
        var status: Int32
        var output: String
        var loudSeconds: Double
        var log: String
    }

    static func converse() throws -> Run {
        guard SpeechServerProcess.venvHas("mcp") else {
            throw Missing(description: "the MCP Python SDK is not installed in \(SpeechServerProcess.venvPath): run `make peers`")
        }
        guard let earshot = BuiltProduct.url("earshot") else { throw Missing(description: "earshot is not built next to the tests: run `swift build --build-tests`") }
        let session = try LiveSession(arguments: ["--listen", "--stt", "embedded", "--tts", "embedded", "--voice", "cove"])
        let recording = try session.sound.record()
        let outputPath = session.directory + "/check_mcp_peer.log"
        let status = try ChildProcess(
            SpeechServerProcess.venvPath + "/bin/python", [checker, earshot.path, session.daemon.socketPath, fixture, "kitchen"],
            environment: ProcessInfo.processInfo.environment.merging(session.sound.environment) { $1 }, outputPath: outputPath
        ).wait()
        let recorded = recording.stop()
        return Run(
            status: status, output: fileText(outputPath), loudSeconds: Double(recorded.filter { abs($0) > 0.02 }.count) / 16_000,
            log: session.daemon.log
        )
    }

    @Test func withoutASoundServerConverseSaysThereIsNoMicrophone() async throws {
        let (status, output) = try await onDedicatedThread { () throws -> (Int32, String) in
            guard let earshot = BuiltProduct.url("earshot") else { throw Missing(description: "earshot is not built next to the tests") }
            let session = try LiveSession(arguments: ["--stt", "embedded", "--tts", "embedded"], soundServerUp: false)
            let outputPath = session.directory + "/check_mcp_peer.log"
            let status = try ChildProcess(
                SpeechServerProcess.venvPath + "/bin/python", [Self.checker, earshot.path, session.daemon.socketPath, "--no-sound-server"],
                environment: ProcessInfo.processInfo.environment, outputPath: outputPath
            ).wait()
            return (status, fileText(outputPath))
        }
        #expect(status == 0, "\(output)")
        #expect(output.contains("ok: no microphone is a tool error in words\n"), "\(output)")
    }

    @Test func agentsConverseOneAtATimeThroughTheDaemon() async throws {
        let run = try await onDedicatedThread { try Self.converse() }
        #expect(run.status == 0, "\(run.output)\n\(run.log.suffix(4000))")
        #expect(run.output.contains("all checks passed"), "\(run.output)")
        #expect(run.output.contains("converse: The person said: \u{201C}turn on the kitchen lights\u{201D}"), "\(run.output)")
        for check in ["a second agent is busy", "silence times out as a tool error", "a stopped message is reported with the words said",
            "dismissing is reported, not an error", "no daemon is a tool error in words"]
        {
            #expect(run.output.contains("ok: \(check)\n"), "\(run.output)")
        }
        // The message (about 3 s in Cove's voice) and the second agent's "Anyone there?" reached the speaker.
        #expect(run.loudSeconds > 1.5, "only \(run.loudSeconds) s of sound reached the speaker")
    }
}
