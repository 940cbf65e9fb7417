import EarshotTestSupport
import Foundation
import Testing

/// The sound server killed at the worst moments (issue 14): in the middle of a reply, and while
/// the echo canceller is being loaded. The daemon stays the same process, says what happened,
/// comes back on its own, and what it was asked for afterwards still works. The same kill during
/// plain capture is in LiveCaptureTests.
@Suite(.serialized, .enabled(if: TestPeers.soundServers, "needs pulseaudio or pipewire-pulse (make deps installs both)"), .tags(.live))
struct LiveSoundServerFaultTests {
    static func state(_ event: [String: Any]) -> String? {
        event["event"] as? String == "state" ? event["state"] as? String : nil
    }

    static func named(_ name: String) -> ([String: Any]) -> Bool {
        { $0["event"] as? String == name }
    }

    /// "state:listening", "error:sound_server_lost", "device:connected": enough to read a timeline.
    static func describe(_ event: [String: Any]) -> String {
        "\(event["event"] ?? "?"):\(event["state"] ?? event["code"] ?? event["change"] ?? event["phase"] ?? "")"
    }

    static let longReply = Array(repeating: "This sentence keeps the speaker busy for a good while.", count: 12).joined(separator: " ")

    struct MidReplyRun: Sendable {
        var statesBeforeKill: [String]
        var eventsAfterKill: [String]
        var errorCode: String?
        var eventsAfterReturn: [String]
        var stateAfterReturn: String?
        var reconnects: Int?
        var nextReplyAccepted: Bool
        var nextReplyStates: [String]
        var nextReplyLoudSeconds: Double
        var samePIDStillRunning: Bool
        var log: String
    }

    static func killMidReply(on kind: SoundServerKind) throws -> MidReplyRun {
        let session = try LiveSession(on: kind, arguments: ["--listen", "--tts", "embedded"])
        let client = try session.subscribedClient(topics: ["state", "error", "device", "speech"])
        let pid = session.daemon.pid
        var events: [[String: Any]] = []
        _ = try client.request(#"{"id":"say","cmd":"speak","text":"\#(longReply)"}"#, events: &events)
        events += client.events(timeout: 20) { Self.state($0) == "speaking" }
        Thread.sleep(forTimeInterval: 0.8)
        events += client.events(timeout: 0.1)
        let statesBeforeKill = events.compactMap(Self.state)

        session.sound.kill(signal: SIGKILL)
        var afterKill = client.events(timeout: 3) { Self.named("error")($0) && $0["code"] as? String == "sound_server_lost" }
        afterKill += client.events(timeout: 1)
        try session.sound.restart()
        let afterReturn = client.events(timeout: 5) { Self.named("device")($0) && $0["change"] as? String == "connected" }

        let status = try session.status()
        // What is asked for after the server's return is done: the next reply is heard.
        let recording = try session.sound.record()
        var next: [[String: Any]] = []
        let response = try client.request(#"{"id":"again","cmd":"speak","text":"The sound server is back, and so am I."}"#, events: &next)
        next += client.events(timeout: 30) { Self.state($0) == "listening" }
        Thread.sleep(forTimeInterval: 0.2)
        let recorded = recording.stop()
        return MidReplyRun(
            statesBeforeKill: statesBeforeKill,
            eventsAfterKill: afterKill.map(Self.describe),
            errorCode: afterKill.first(where: Self.named("error"))?["code"] as? String,
            eventsAfterReturn: afterReturn.map(Self.describe),
            stateAfterReturn: (status["state"] as? [String: Any])?["state"] as? String,
            reconnects: (status["counters"] as? [String: Any])?["reconnects"] as? Int,
            nextReplyAccepted: response["ok"] as? Bool == true,
            nextReplyStates: next.compactMap(Self.state),
            nextReplyLoudSeconds: Double(recorded.filter { abs($0) > 0.02 }.count) / 16_000,
            samePIDStillRunning: session.daemon.pid == pid && session.daemon.process.isRunning,
            log: session.daemon.log
        )
    }

    @Test(arguments: SoundServerKind.testable)
    func theSoundServerDyingMidReplyEndsTheReplyAndTheNextIsSpoken(on kind: SoundServerKind) async throws {
        let run = try await onDedicatedThread { try Self.killMidReply(on: kind) }
        #expect(run.statesBeforeKill.last == "speaking", "\(run.statesBeforeKill)")
        // The reply cannot go on without a speaker: it ends at once, and the person has the turn.
        // The first events after the kill are these three, in any order (three threads tell
        // them); a player that still had text to synthesize also says the reply failed.
        let expected: Set = ["device:disconnected", "error:sound_server_lost", "state:listening"]
        var first: Set<String> = []
        for event in run.eventsAfterKill where !expected.isSubset(of: first) { first.insert(event) }
        #expect(first.subtracting(["error:speech_failed"]) == expected, "\(run.eventsAfterKill)")
        #expect(run.samePIDStillRunning)
        #expect(run.eventsAfterReturn.last == "device:connected", "\(run.eventsAfterReturn)\n\(run.log.suffix(3000))")
        #expect(run.stateAfterReturn == "listening")
        #expect(run.reconnects == 1)
        #expect(run.nextReplyAccepted)
        #expect(run.nextReplyStates.suffix(3) == ["thinking", "speaking", "listening"], "\(run.nextReplyStates)\n\(run.log)")
        #expect(run.nextReplyLoudSeconds > 0.5, "the reply after the return was not heard: \(run.nextReplyLoudSeconds) s loud")
    }

    struct EchoCancellerRun: Sendable {
        var connectedAfterEachReturn: [Bool]
        /// Kills that landed after the daemon reached the server and before the canceller answered.
        var killsBeforeTheCancellerAnswered: Int
        var echoCancellation: String?
        var cancellerModules: Int
        var state: String?
        var framesAdvanced: Bool
        var samePIDStillRunning: Bool
        var log: String
    }

    static func frames(_ session: LiveSession) throws -> Int {
        ((try session.status()["counters"] as? [String: Any])?["frames"] as? Int) ?? -1
    }

    /// The server is frozen (SIGSTOP) while the daemon reconnects, so the daemon waits inside
    /// its connection; it is thawed and killed `delay` later: early delays land in the
    /// handshake and the canceller's loading, later ones in moving the streams onto it.
    /// Each kill is followed by a plain restart, and the daemon must come back every time.
    static func killWhileTheEchoCancellerLoads(on kind: SoundServerKind, delays: [Double]) throws -> EchoCancellerRun {
        let session = try LiveSession(on: kind, arguments: ["--listen", "--echo-cancel"])
        var client = try session.subscribedClient(topics: ["error", "device"])
        let pid = session.daemon.pid
        var connected: [Bool] = []
        // A sanitized daemon reconnects several times slower; the bound, not the behaviour, grows.
        // A daemon that lost the race in libpulse restarts itself after 5 s (the test below).
        let returnBound = ProcessInfo.processInfo.environment["EARSHOT_SANITIZER"] == nil ? 10.0 : 25.0
        for delay in delays {
            session.sound.kill(signal: SIGKILL)
            _ = client.events(timeout: 3) { Self.named("device")($0) && $0["change"] as? String == "disconnected" }
            // The daemon is frozen while the server restarts (which takes longer than its
            // first retries), then the server is frozen and the daemon thawed: its overdue
            // retry connects at once and waits in the handshake until the server thaws.
            Glibc.kill(pid, SIGSTOP)
            try session.sound.restart()
            guard let server = session.sound.pid else {
                Glibc.kill(pid, SIGCONT)
                break
            }
            Glibc.kill(server, SIGSTOP)
            Glibc.kill(pid, SIGCONT)
            Thread.sleep(forTimeInterval: 0.2)
            Glibc.kill(server, SIGCONT)
            Thread.sleep(forTimeInterval: delay)
            session.sound.kill(signal: SIGKILL)
            _ = client.events(timeout: 0.3)
            try session.sound.restart()
            let back = client.events(timeout: returnBound) { Self.named("device")($0) && $0["change"] as? String == "connected" }
            if client.isClosed {
                let status = session.connectedStatusAcrossRestarts(timeout: returnBound)
                connected.append((status["audio"] as? [String: Any])?["connected"] as? Bool == true)
                client = try session.subscribedClient(topics: ["error", "device"])
            } else {
                connected.append(back.last.map(Self.describe) == "device:connected")
            }
        }
        _ = client.events(timeout: 0.5)
        let status = session.connectedStatusAcrossRestarts(timeout: returnBound)
        let framesBefore = try Self.frames(session)
        Thread.sleep(forTimeInterval: 0.5)
        let modules = (try? session.sound.pactl("list", "short", "modules")) ?? ""
        let log = session.daemon.log
        return EchoCancellerRun(
            connectedAfterEachReturn: connected, killsBeforeTheCancellerAnswered: Self.killsBeforeTheCancellerAnswered(in: log),
            echoCancellation: (status["audio"] as? [String: Any])?["echo_cancellation"] as? String,
            cancellerModules: modules.split(separator: "\n").filter { $0.contains("module-echo-cancel") }.count,
            state: (status["state"] as? [String: Any])?["state"] as? String,
            framesAdvanced: try Self.frames(session) >= framesBefore + 30,
            samePIDStillRunning: session.daemon.pid == pid && session.daemon.process.isRunning,
            log: log
        )
    }

    /// Counts, in the daemon's log, connections lost after "connected to the sound server" and
    /// before "echo cancellation on" (or its refusal): while the daemon asked for the server's
    /// modules and loaded the canceller.
    static func killsBeforeTheCancellerAnswered(in log: String) -> Int {
        var count = 0
        var waitingForCanceller = false
        for line in log.split(separator: "\n") {
            if line.contains("connected to the sound server server=") {
                waitingForCanceller = true
            } else if line.contains("echo cancellation") {
                waitingForCanceller = false
            } else if line.contains("lost the sound server") || line.contains("still unavailable"), waitingForCanceller {
                count += 1
                waitingForCanceller = false
            }
        }
        return count
    }

    @Test(arguments: SoundServerKind.testable)
    func theSoundServerDyingWhileTheEchoCancellerLoadsLeavesItLoadedOnceAfterTheReturn(on kind: SoundServerKind) async throws {
        let delays = [0.0, 0.0005, 0.001, 0.002, 0.003, 0.005, 0.008, 0.012, 0.02]
        let run = try await onDedicatedThread { try Self.killWhileTheEchoCancellerLoads(on: kind, delays: delays) }
        #expect(run.connectedAfterEachReturn == Array(repeating: true, count: delays.count), "\(run.connectedAfterEachReturn)\n\(run.log.suffix(4000))")
        #expect(run.killsBeforeTheCancellerAnswered >= 1, "no kill landed while the canceller loaded:\n\(run.log.suffix(4000))")
        #expect(run.echoCancellation?.hasPrefix("active on") == true, "\(run.echoCancellation ?? "nil")\n\(run.log.suffix(3000))")
        #expect(run.cancellerModules == 1, "\(run.cancellerModules) echo cancellers loaded")
        #expect(run.state == "listening")
        #expect(run.framesAdvanced, "capture did not resume on the canceller")
        #expect(run.samePIDStillRunning)
        print("\(kind): \(run.killsBeforeTheCancellerAnswered) of \(delays.count) kills landed before the echo canceller answered")
    }

    /// libpulse hangs for good (its thread spinning, the mainloop lock held) when a connection dies
    /// while the server's shared ring buffer is being switched in; the test above ran into it.
    /// The daemon turns libpulse's shared memory off, so no server offers the ring buffer: nothing
    /// of the server's is mapped into the daemon, and capture goes on over the socket.
    @Test(arguments: SoundServerKind.testable)
    func theDaemonSharesNoMemoryWithTheSoundServer(on kind: SoundServerKind) async throws {
        let (mappings, configuration, framesAdvanced) = try await onDedicatedThread {
            let session = try LiveSession(on: kind, arguments: ["--listen"])
            _ = try session.connectedStatus()
            let before = try Self.frames(session)
            Thread.sleep(forTimeInterval: 0.5)
            return (
                fileText("/proc/\(session.daemon.pid)/maps"), fileText(session.directory + "/libpulse-client.conf"),
                try Self.frames(session) >= before + 30
            )
        }
        #expect(!mappings.isEmpty)
        let shared = mappings.split(separator: "\n").filter { $0.contains("memfd:pulseaudio") || $0.contains("/dev/shm/pulse-shm") }
        #expect(shared.isEmpty, "the daemon maps the sound server's memory: \(shared)")
        #expect(configuration.hasSuffix("enable-shm = no\n"), "\(configuration)")
        #expect(framesAdvanced, "capture does not flow")
    }

    /// Should the audio thread get stuck all the same (in that hang or another), the daemon sees
    /// it and starts afresh in the same process. No test can bring libpulse's hang on at will, so
    /// the daemon's fault injection holds the audio engine's lock for good instead; the daemon
    /// must restart itself, and serve and capture again.
    @Test func aStuckAudioThreadRestartsTheDaemonInPlace() async throws {
        let run = try await onDedicatedThread {
            let session = try LiveSession(arguments: ["--listen"], environment: ["EARSHOT_FAULT_STALL_AUDIO_THREAD_AFTER_MS": "1000"])
            let pid = session.daemon.pid
            _ = try session.connectedStatus()
            let client = try session.subscribedClient(topics: ["state"])
            let closed = client.readUntilClosed(timeout: 15)
            // The new start binds the socket again: until then, connecting is refused.
            let status = session.connectedStatusAcrossRestarts(timeout: 10)
            let framesBefore = (try? Self.frames(session)) ?? -1
            Thread.sleep(forTimeInterval: 0.5)
            return (
                closed: closed, connected: (status["audio"] as? [String: Any])?["connected"] as? Bool,
                framesAdvanced: (try? Self.frames(session)).map { $0 >= framesBefore + 30 } ?? false,
                samePID: session.daemon.pid == pid && session.daemon.process.isRunning, log: session.daemon.log
            )
        }
        #expect(run.closed, "the stuck daemon kept its clients:\n\(run.log.suffix(3000))")
        #expect(run.log.contains("The audio pipeline thread has not run for over 5.0 s: it is stuck, so earshotd restarts itself."), "\(run.log.suffix(3000))")
        #expect(run.log.contains("Restarting earshotd"))
        #expect(run.connected == true, "\(run.log.suffix(3000))")
        #expect(run.framesAdvanced, "capture did not resume after the restart")
        #expect(run.samePID)
    }
}
