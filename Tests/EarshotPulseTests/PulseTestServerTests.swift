import EarshotAudio
import EarshotTestSupport
import Foundation
import Testing

@Suite("The private PulseAudio test server", .enabled(if: TestPeers.pulseAudio))
struct PulseTestServerTests {
    @Test func serversRunSideBySideAndCleanUp() async throws {
        async let first = onDedicatedThread { try PulseTestServer() }
        async let second = onDedicatedThread { try PulseTestServer() }
        let (a, b) = try await (first, second)
        #expect(a.directory != b.directory)
        #expect(a.serverAddress == "unix:\(a.directory)/native")
        #expect(a.environment["PULSE_SERVER"] == a.serverAddress)
        let sinks = try await onDedicatedThread { try a.pactl("list", "short", "sinks") }
        #expect(sinks.contains("speaker") && sinks.contains("micfeed"))
        let info = try await onDedicatedThread { try b.pactl("info") }
        #expect(info.contains("Default Source: mic") && info.contains("Default Sink: speaker"))

        let pid = try #require(a.pid)
        await onDedicatedThread { a.stop() }
        #expect(!ProcessTable.exists(pid))
        #expect(!FileManager.default.fileExists(atPath: a.directory))
        #expect(try await onDedicatedThread { try b.pactl("info") }.contains("Server Name"))
        await onDedicatedThread { b.stop() }
    }

    /// `kill` returns only once the process is really gone, and `restart` brings the same
    /// server address back.
    @Test func killAndRestart() async throws {
        let server = try await onDedicatedThread { try PulseTestServer() }
        defer { server.stop() }
        let pid = try #require(server.pid)
        await onDedicatedThread { server.kill() }
        #expect(server.pid == nil)
        #expect(!ProcessTable.exists(pid))
        #expect(ProcessTable.state(pid) == nil)
        await #expect(throws: PulseTestServer.Failure.self) { try await onDedicatedThread { try server.pactl("info") } }
        try await onDedicatedThread { try server.restart() }
        let newPid = try #require(server.pid)
        #expect(newPid != pid)
        #expect(ProcessTable.state(newPid) != "Z")
        #expect(try await onDedicatedThread { try server.pactl("info") }.contains(server.directory))
    }

    /// What is played into `micfeed` can be recorded from `mic`, sample for sample.
    @Test func virtualMicrophoneLoopsBack() async throws {
        let server = try await onDedicatedThread { try PulseTestServer() }
        defer { server.stop() }
        let recording = try server.record(from: "mic")
        try await Task.sleep(for: .milliseconds(100))
        let path = LiveAudio.fixture("noise_bursts.wav")
        let player = try server.play(path)
        #expect(await onDedicatedThread { player.wait() } == 0)
        try await Task.sleep(for: .milliseconds(100))
        let recorded = await onDedicatedThread { recording.stop() }
        let reference = try WAVFile.read(path).samples
        let offset = try #require(SignalMeasure.offset(of: reference, in: recorded))
        try #require(offset + reference.count <= recorded.count)
        #expect(SignalMeasure.correlation(reference[...], recorded[offset..<(offset + reference.count)]) > 0.999)
    }
}
