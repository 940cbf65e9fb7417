import EarshotAudio
@testable import EarshotPulse
import EarshotTestSupport
import Foundation
import Testing

/// Playback asked for while the connection is being made (issue 22): it waits for the streams,
/// within the configured bound, instead of failing. The server is started only once the wait is
/// registered, so nothing depends on how fast the engine connects.
@Suite("Playback waiting for the connection", .serialized, .enabled(if: TestPeers.soundServers), .tags(.live))
struct LivePlaybackWaitTests {
    /// An engine started with its server killed: it is retrying when the test goes on.
    static func engineWithoutServer(
        on kind: SoundServerKind, connectionWait: Duration
    ) async throws -> (server: any TestSoundServer, engine: PulseAudioEngine, events: EventLog) {
        let server = try await onDedicatedThread { try kind.start() }
        await onDedicatedThread { server.kill() }
        let engine = try PulseAudioEngine(
            configuration: .init(server: server.serverAddress, applicationName: "Earshot tests", connectionWait: connectionWait),
            logger: LiveAudio.logger
        )
        let events = EventLog.recording(engine)
        try engine.start()
        _ = await events.first { if case .disconnected = $0 { true } else { false } }
        return (server, engine, events)
    }

    static func waits(_ engine: PulseAudioEngine) -> Int {
        engine.withSession { $0.connectionWaits.count }
    }

    @Test(arguments: SoundServerKind.testable)
    func playbackAskedForBeforeTheServerIsUpWaitsAndIsHeard(on kind: SoundServerKind) async throws {
        let (server, engine, events) = try await Self.engineWithoutServer(on: kind, connectionWait: .seconds(10))
        defer { server.stop() }
        defer { engine.stop() }
        let tone = SignalMeasure.sine(frequency: 1_000, seconds: 0.5, amplitude: 0.5)
        #expect(!engine.play(tone), "played with no server")

        let playable = Task { await engine.waitUntilPlayable() }
        #expect(await eventually { Self.waits(engine) == 1 }, "the wait was not registered")
        let before = events.all.count
        try await onDedicatedThread { try server.restart() }
        let recording = try server.record()
        #expect(await playable.value, "the wait ended without a connection")
        #expect(engine.status.isConnected, "answered before the connection was made")
        #expect(await events.firstConnected(from: before) != nil)
        #expect(Self.waits(engine) == 0)
        // The tone starts once the recorder hears the monitor (silence, in real time).
        #expect(await eventually { recording.sampleCount > 0 }, "the recorder never started")
        #expect(engine.play(tone))
        await engine.waitForPlayback()
        try await Task.sleep(for: .milliseconds(150))
        let recorded = await onDedicatedThread { recording.stop() }
        // Heard, not bit-exact (LivePlaybackTests checks that): a server that has just started,
        // on a busy machine, drops the odd 8 or 16 ms (seen on PipeWire).
        func loud(_ samples: [Float]) -> Int { samples.filter { abs($0) > 0.2 }.count }
        #expect(SignalMeasure.offset(of: tone, in: recorded) != nil, "nothing reached the speaker")
        #expect(Double(loud(recorded)) >= 0.8 * Double(loud(tone)), "\(loud(recorded)) of \(loud(tone)) loud samples heard")
    }

    @Test(arguments: SoundServerKind.testable)
    func withoutAServerTheWaitEndsAtItsBound(on kind: SoundServerKind) async throws {
        let (server, engine, _) = try await Self.engineWithoutServer(on: kind, connectionWait: .milliseconds(400))
        defer { server.stop() }
        defer { engine.stop() }
        let started = ContinuousClock.now
        let playable = await engine.waitUntilPlayable()
        let waited = ContinuousClock.now - started
        #expect(!playable)
        #expect(waited >= .milliseconds(390) && waited < .seconds(2), "waited \(waited)")
        #expect(Self.waits(engine) == 0)
    }

    @Test(arguments: SoundServerKind.testable)
    func aCancelledOrStoppedWaitEndsAtOnce(on kind: SoundServerKind) async throws {
        let (server, engine, _) = try await Self.engineWithoutServer(on: kind, connectionWait: .seconds(30))
        defer { server.stop() }
        let cancelled = Task { await engine.waitUntilPlayable() }
        #expect(await eventually { Self.waits(engine) == 1 })
        cancelled.cancel()
        #expect(await cancelled.value == false)
        #expect(Self.waits(engine) == 0)

        let stopped = Task { await engine.waitUntilPlayable() }
        #expect(await eventually { Self.waits(engine) == 1 })
        let stopping = ContinuousClock.now
        await onDedicatedThread { engine.stop() }
        #expect(await stopped.value == false)
        #expect(ContinuousClock.now - stopping < .seconds(2))
        #expect(await engine.waitUntilPlayable() == false, "a stopped engine has nothing to wait for")
    }
}
