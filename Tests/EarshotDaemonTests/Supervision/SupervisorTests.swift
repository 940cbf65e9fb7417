import EarshotDaemon
import Testing

/// The supervisor driven through whole start-ups and failures, sampled four times a second as
/// the daemon samples it.
struct SupervisorTests {
    static let socket = "/run/user/1000/earshot/earshot.sock"

    /// A daemon's life, one sample every 250 ms from time 0; `frames` counts frames as they
    /// arrive (100 a second while `flowing`).
    struct Run {
        var supervisor: Supervisor
        var time: Duration = .zero
        var loops = 0
        var frames = 0
        var listening = true
        var soundServer = SoundServerState.connected(source: "mic")
        var capturing = false
        var flowing = true
        var pipelineTurning = true
        var actions: [(time: Duration, action: SupervisorAction)] = []

        init(watchdog: Duration? = .seconds(10), readyTimeout: Duration = .seconds(5)) {
            supervisor = Supervisor(configuration: .init(socket: SupervisorTests.socket, readyTimeout: readyTimeout, watchdogInterval: watchdog))
        }

        /// Samples every 250 ms for `duration`.
        mutating func run(for duration: Duration) {
            let end = time + duration
            while time < end {
                let sample = AudioLoopSample(
                    time: time, isSocketListening: listening, audioThreadTurns: loops, framesCaptured: frames,
                    soundServer: soundServer, isCapturing: capturing
                )
                for action in supervisor.observe(sample) { actions.append((time, action)) }
                time += .milliseconds(250)
                if pipelineTurning { loops += 3 }
                if capturing, flowing, case .connected = soundServer { frames += 25 }
            }
        }

        func keepAlives(from start: Duration = .zero, to end: Duration = .seconds(10_000)) -> [Duration] {
            actions.filter { $0.action == .keepAlive && $0.time >= start && $0.time < end }.map(\.time)
        }

        var sent: [SupervisorAction] { actions.map(\.action).filter { $0 != .keepAlive } }
    }

    @Test func readyOnceTheSocketListensAndTheSoundServerIsConnected() {
        var run = Run()
        run.listening = false
        run.soundServer = .connecting
        run.run(for: .milliseconds(500))
        #expect(run.sent == [.status("connecting to the sound server; socket \(Self.socket)")])
        run.listening = true
        run.run(for: .milliseconds(500))
        #expect(!run.supervisor.isReady)
        run.soundServer = .connected(source: "alsa_input.usb-mic")
        run.run(for: .milliseconds(250))
        #expect(run.sent.last == .ready(status: "idle (voice mode off); socket \(Self.socket)"))
        #expect(run.supervisor.isReady)
    }

    @Test func listeningFromTheStartIsReadyWithTheFirstFrames() {
        var run = Run()
        run.capturing = true
        run.flowing = false
        run.run(for: .seconds(1))
        #expect(!run.supervisor.isReady)
        run.flowing = true
        run.run(for: .milliseconds(500))
        #expect(run.sent == [.status("listening on mic"), .ready(status: "listening on mic")])
    }

    @Test func readyAfterTheTimeoutWhenTheSoundServerDoesNotAnswer() {
        var run = Run()
        run.soundServer = .lost(reason: "Connection refused", retryIn: .milliseconds(500))
        run.run(for: .seconds(6))
        let line = "sound server not answering (Connection refused); retrying in 0.5 s; socket \(Self.socket)"
        #expect(run.sent == [.status(line), .ready(status: line)])
        #expect(run.actions.first { $0.action == .ready(status: line) }?.time == .seconds(5))
        // The daemon reconnects by itself: nothing is stuck, the keep-alives go on.
        #expect(run.keepAlives() == [.zero, .seconds(5)])
    }

    @Test func keepAlivesEveryHalfIntervalWhileHealthy() {
        var run = Run()
        run.capturing = true
        run.run(for: .seconds(30))
        #expect(run.keepAlives() == stride(from: 0, to: 30, by: 5).map { Duration.seconds($0) })
    }

    @Test func aStuckCaptureStopsTheKeepAlivesAndSaysSoOnce() {
        var run = Run()
        run.capturing = true
        run.run(for: .seconds(12))
        run.flowing = false
        run.run(for: .seconds(20))
        // Frames last arrived at 12.0 s; stuck from over 10 s later.
        #expect(run.keepAlives(from: .seconds(12)) == [.seconds(15), .seconds(20)])
        let stalls = run.actions.filter { if case .stalled = $0.action { true } else { false } }
        #expect(stalls.map(\.time) == [.milliseconds(22_250)])
        #expect(stalls.first?.action == .stalled(
            "No audio has come from mic for over 10.0 s while capturing: the audio loop is stuck; watchdog keep-alives stop, so systemd restarts earshotd."
        ))
        #expect(run.sent.last == .status("stuck: no audio from mic for over 10.0 s"))

        run.flowing = true
        run.run(for: .seconds(1))
        #expect(run.keepAlives(from: .seconds(32)) == [.milliseconds(32_250)])
        #expect(run.sent.suffix(2) == [
            .recovered("Audio from mic flows again; watchdog keep-alives resume."), .status("listening on mic"),
        ])
    }

    @Test func aLostSoundServerIsNotStuck() {
        var run = Run()
        run.capturing = true
        run.run(for: .seconds(2))
        run.soundServer = .lost(reason: "Connection terminated", retryIn: .milliseconds(100))
        run.run(for: .seconds(30))
        #expect(run.keepAlives(from: .seconds(2)).count == 6)
        #expect(run.sent.last == .status("sound server lost (Connection terminated); retrying in 0.1 s; socket \(Self.socket)"))
        run.soundServer = .connected(source: "mic")
        run.run(for: .seconds(1))
        #expect(run.sent.last == .status("listening on mic"))
        #expect(!run.sent.contains { if case .stalled = $0 { true } else { false } })
    }

    @Test func aClosedMicrophoneIsNotStuck() {
        var run = Run()
        run.capturing = false
        run.run(for: .seconds(40))
        #expect(run.keepAlives().count == 8)
        #expect(run.sent == [.ready(status: "idle (voice mode off); socket \(Self.socket)")])
    }

    @Test func voiceModeStartingGivesFramesTheLimitToArrive() {
        var run = Run()
        run.run(for: .seconds(3))
        run.capturing = true
        run.flowing = false
        run.run(for: .seconds(10))
        #expect(!run.sent.contains { if case .stalled = $0 { true } else { false } })
        run.run(for: .milliseconds(500))
        #expect(run.sent.contains { if case .stalled = $0 { true } else { false } })
    }

    @Test func aStuckPipelineThreadStopsTheKeepAlives() {
        var run = Run()
        run.run(for: .seconds(6))
        run.pipelineTurning = false
        run.run(for: .seconds(20))
        #expect(run.keepAlives(from: .seconds(6)) == [.seconds(10), .seconds(15)])
        #expect(run.sent.last == .status("stuck: the audio pipeline has not run for over 10.0 s"))
    }

    @Test func withoutAWatchdogNoKeepAlivesButTheStatusStillTells() {
        var run = Run(watchdog: nil)
        run.capturing = true
        run.run(for: .seconds(2))
        run.flowing = false
        run.run(for: .seconds(12))
        #expect(run.keepAlives().isEmpty)
        #expect(run.sent.contains(.stalled("No audio has come from mic for over 5.0 s while capturing.")))
        #expect(!run.sent.contains(.restart), "a silent source is not fixed by starting afresh")
    }

    @Test func withoutAWatchdogAStuckAudioThreadRestartsTheDaemonOnce() {
        var run = Run(watchdog: nil)
        run.capturing = true
        run.run(for: .seconds(3))
        run.pipelineTurning = false
        run.run(for: .seconds(20))
        let stuck = run.actions.filter { $0.action == .restart || $0.action == .stalled("The audio pipeline thread has not run for over 5.0 s: it is stuck, so earshotd restarts itself.") }
        // The thread last turned at 3.0 s; the first sample more than 5 s later says so and restarts.
        #expect(stuck.map(\.time) == [.milliseconds(8_250), .milliseconds(8_250)], "\(run.sent)")
        #expect(stuck.last?.action == .restart)
    }

    @Test func withAWatchdogTheManagerRestartsAStuckDaemonNotTheDaemonItself() {
        var run = Run()
        run.run(for: .seconds(1))
        run.pipelineTurning = false
        run.run(for: .seconds(30))
        #expect(!run.sent.contains(.restart))
    }

    @Test func aGapInTheSamplesIsNotAStall() {
        // The machine slept (or the sampler was starved): no sample for a minute, and the audio
        // thread has not turned meanwhile. It gets the whole limit again from the next sample.
        var run = Run(watchdog: nil)
        run.capturing = true
        run.run(for: .seconds(2))
        run.time += .seconds(60)
        run.pipelineTurning = false
        run.run(for: .seconds(4))
        #expect(!run.sent.contains(.restart), "\(run.sent)")
        run.run(for: .seconds(2))
        #expect(run.sent.contains(.restart), "the limit still holds once samples come regularly")
    }

    @Test func stoppingSaysSo() {
        var run = Run()
        run.run(for: .seconds(1))
        #expect(run.supervisor.stop() == [.stopping(status: "stopping")])
    }
}
