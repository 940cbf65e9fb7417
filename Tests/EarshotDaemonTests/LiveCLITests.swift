import EarshotTestSupport
import Foundation
import Testing

/// The `earshot` commands against the real daemon on a private sound server.
@Suite(.serialized, .enabled(if: TestPeers.pulseAudio, "needs pulseaudio (make deps installs it)"), .tags(.live))
struct LiveCLITests {
    struct Run: Sendable {
        var status: BuiltProduct.Outcome
        var start: BuiltProduct.Outcome
        var setSource: BuiltProduct.Outcome
        var sourceInUse: String?
        var unknownSink: BuiltProduct.Outcome
        var followDefault: BuiltProduct.Outcome
        var stop: BuiltProduct.Outcome
    }

    static func drive() throws -> Run {
        let session = try LiveSession(arguments: [])
        func earshot(_ arguments: String...) throws -> BuiltProduct.Outcome {
            try BuiltProduct.run("earshot", arguments + ["--socket", session.daemon.socketPath])
        }
        let status = try earshot("status")
        let start = try earshot("start")
        let setSource = try earshot("set-source", "speaker.monitor")
        let devices = try earshot("devices", "--json")
        let object = try JSONSerialization.jsonObject(with: devices.stdout) as? [String: Any]
        return Run(
            status: status, start: start, setSource: setSource, sourceInUse: object?["source"] as? String,
            unknownSink: try earshot("set-sink", "no-such-sink"), followDefault: try earshot("set-source", "--default"),
            stop: try earshot("stop")
        )
    }

    @Test func aPersonDrivesTheDaemonFromTheCommandLine() async throws {
        let run = try await onDedicatedThread { try Self.drive() }
        #expect(run.status.status == 0)
        #expect(run.status.stdoutText.contains("idle"))
        #expect(run.status.stdoutText.contains("connected"))
        #expect(run.start.status == 0 && run.start.stdoutText.hasPrefix("listening"))
        #expect(run.setSource.status == 0 && run.setSource.stdoutText.contains("speaker.monitor"))
        #expect(run.sourceInUse == "speaker.monitor")
        #expect(run.unknownSink.status == 1)
        #expect(run.unknownSink.stderr.contains("no-such-sink"))
        #expect(run.followDefault.status == 0 && run.followDefault.stdoutText.contains("following the default"))
        #expect(run.stop.status == 1)
        #expect(run.stop.stderr.contains("Nothing is playing"))
    }
}
