import EarshotAudio
import EarshotTestSupport
import Foundation
import Testing

@Suite("The private test sound servers", .enabled(if: TestPeers.soundServers), .tags(.live))
struct TestSoundServerTests {
    @Test(arguments: SoundServerKind.testable)
    func serversRunSideBySideAndCleanUp(kind: SoundServerKind) async throws {
        let started = ContinuousClock.now
        async let first = onDedicatedThread { try kind.start() }
        async let second = onDedicatedThread { try kind.start() }
        let (a, b) = try await (first, second)
        print("\(kind): two servers side by side answered after \(ContinuousClock.now - started)")
        #expect(a.kind == kind)
        #expect(a.directory != b.directory)
        #expect(a.serverAddress == "unix:\(a.directory)/native")
        #expect(a.environment["PULSE_SERVER"] == a.serverAddress)
        let sinks = try await onDedicatedThread { try a.pactl("list", "short", "sinks") }
        #expect(sinks.contains("speaker") && sinks.contains("micfeed"))
        let info = try await onDedicatedThread { try b.pactl("info") }
        #expect(info.contains("Default Source: mic") && info.contains("Default Sink: speaker"))

        let pids = Self.processes(of: a)
        #expect(pids.count == (kind == .pipeWire ? 4 : 1), "\(pids)")
        await onDedicatedThread { a.stop() }
        #expect(pids.allSatisfy { !ProcessTable.exists($0) }, "left running: \(pids.filter(ProcessTable.exists))")
        #expect(!FileManager.default.fileExists(atPath: a.directory))
        #expect(try await onDedicatedThread { try b.pactl("info") }.contains("Server Name"))
        await onDedicatedThread { b.stop() }
    }

    /// How long a server takes to answer with its devices, for the record (the live suites start
    /// one per test).
    @Test(arguments: SoundServerKind.testable)
    func startsWithinASecond(kind: SoundServerKind) async throws {
        var times: [Duration] = []
        for _ in 0..<3 {
            let started = ContinuousClock.now
            let server = try await onDedicatedThread { try kind.start() }
            times.append(ContinuousClock.now - started)
            await onDedicatedThread { server.stop() }
        }
        print("\(kind) starts in \(times.map { "\($0.formatted(.units(allowed: [.milliseconds])))" }.joined(separator: ", "))")
        #expect(times.allSatisfy { $0 < .seconds(1) }, "\(times)")
    }

    /// `kill` returns only once the process is really gone, and `restart` brings the same
    /// server address back, with the same devices and defaults.
    @Test(arguments: SoundServerKind.testable)
    func killAndRestart(kind: SoundServerKind) async throws {
        let server = try await onDedicatedThread { try kind.start() }
        defer { server.stop() }
        _ = try await onDedicatedThread { try server.pactl("set-default-source", "micfeed.monitor") }
        let pid = try #require(server.pid)
        await onDedicatedThread { server.kill() }
        #expect(server.pid == nil)
        #expect(!ProcessTable.exists(pid))
        #expect(ProcessTable.state(pid) == nil)
        await #expect(throws: SoundServerFailure.self) { try await onDedicatedThread { try server.pactl("info") } }
        try await onDedicatedThread { try server.restart() }
        let newPid = try #require(server.pid)
        #expect(newPid != pid)
        #expect(ProcessTable.state(newPid) != "Z")
        let info = try await onDedicatedThread { try server.pactl("info") }
        #expect(info.contains(server.directory))
        #expect(info.contains("Default Source: mic\n") && info.contains("Default Sink: speaker\n"), "\(info)")
    }

    /// What is played into `micfeed` can be recorded from `mic`, sample for sample. On a loaded
    /// machine a graph can still miss a deadline and fill it with silence (PipeWire without
    /// real-time priority, six busy processes on two cores: three plays in six), so one exact play
    /// in three is asked.
    @Test(arguments: SoundServerKind.testable)
    func virtualMicrophoneLoopsBack(kind: SoundServerKind) async throws {
        let server = try await onDedicatedThread { try kind.start() }
        defer { server.stop() }
        let path = LiveAudio.fixture("noise_bursts.wav")
        let reference = try WAVFile.read(path).samples
        var plays: [String] = []
        var exact = false
        for _ in 0..<3 where !exact {
            let recording = try server.record(from: "mic")
            try await Task.sleep(for: .milliseconds(100))
            let player = try server.play(path)
            #expect(await onDedicatedThread { player.wait() } == 0)
            try await Task.sleep(for: .milliseconds(100))
            let recorded = await onDedicatedThread { recording.stop() }
            let offset = try #require(SignalMeasure.offset(of: reference, in: recorded))
            try #require(offset + reference.count <= recorded.count)
            let correlation = SignalMeasure.correlation(reference[...], recorded[offset..<(offset + reference.count)])
            let largestDifference = zip(reference, recorded[offset...]).map { abs($0 - $1) }.max() ?? 1
            plays.append("correlation \(correlation), largest sample difference \(largestDifference)")
            exact = correlation > 0.999 && largestDifference <= 1 / 32768
        }
        #expect(exact, "no play came back exact: \(plays)")
    }

    /// A server whose test process died is ended, and its directory removed, by the next start.
    @Test(arguments: SoundServerKind.testable)
    func theNextServerRemovesOneLeftByACrashedRun(kind: SoundServerKind) async throws {
        // A pid that is certainly gone: a process that has exited and been reaped.
        let gone = try ChildProcess("/bin/true", [], environment: [:])
        gone.wait()
        let prefix = kind == .pipeWire ? "earshot-pw-" : "earshot-pa-"
        let directory = "/tmp/\(prefix)\(gone.pid)-crashed"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // Stands in for a server process: its command line names the directory.
        let leftover = try ChildProcess("/bin/sh", ["-c", "sleep 30", directory + "/server"], environment: [:])
        let unrelated = try ChildProcess("/bin/sleep", ["30"], environment: [:])
        defer { unrelated.terminate(with: SIGKILL) }
        try "\(leftover.pid)\n\(unrelated.pid)".write(toFile: directory + "/pids", atomically: true, encoding: .utf8)

        let server = try await onDedicatedThread { try kind.start() }
        defer { server.stop() }
        #expect(await onDedicatedThread { leftover.wait() } == 128 + SIGKILL)
        #expect(!FileManager.default.fileExists(atPath: directory))
        #expect(unrelated.isRunning, "a process that does not name the directory was killed")
    }

    /// The pids of the server's processes, as its directory lists them for the next run.
    static func processes(of server: any TestSoundServer) -> [pid_t] {
        let listed = fileText(server.directory + "/pids")
        return listed.split(separator: "\n").compactMap { pid_t($0) }
    }
}
