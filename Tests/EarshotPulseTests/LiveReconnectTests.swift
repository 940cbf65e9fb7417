import EarshotAudio
import EarshotPulse
import EarshotTestSupport
import Foundation
import Testing

@Suite("Surviving the sound server's death", .enabled(if: TestPeers.soundServers), .tags(.live))
struct LiveReconnectTests {
    /// Kill the server mid-capture: the engine notices at once, and once the server is back it
    /// captures again within a second, the same engine object, indices running on.
    @Test(arguments: SoundServerKind.testable, [SIGKILL, SIGTERM])
    func serverKilledAndRestarted(on kind: SoundServerKind, signal: Int32) async throws {
        let live = try await LiveAudio.start(on: kind)
        defer { live.stop() }
        let engine = live.engine
        let collector = FrameCollector(engine)
        defer { collector.stop() }
        #expect(await collector.waitUntil(count: 20))

        let eventsBefore = live.events.all.count
        async let noticedAt = LiveAudio.instant(within: .seconds(2)) { !engine.status.isConnected }
        let killed = ContinuousClock.now
        await onDedicatedThread { live.server.kill(signal: signal) }
        let noticed = try #require(await noticedAt, "the engine still thinks it is connected") - killed
        #expect(noticed < .milliseconds(100), "noticed after \(noticed)")
        let lost = try #require(await live.events.first(from: eventsBefore) {
            if case .disconnected = $0 { true } else { false }
        }, "no .disconnected after the server died")
        guard case .disconnected(let error, let retryIn) = lost.event else { return }
        #expect(error.isServerUnavailable, "\(error)")
        #expect(retryIn == .milliseconds(100))
        let framesBeforeOutage = collector.count
        let lastIndexBefore = collector.all.last!.frame.index

        // Several retries fail while it is down: they are not reported again.
        try await Task.sleep(for: .milliseconds(700))
        #expect(live.events.all.count == eventsBefore + 1, "\(live.events.events)")

        async let connectedAt = LiveAudio.instant(within: .seconds(3)) { engine.status.isConnected }
        try await onDedicatedThread { try live.server.restart() }
        let back = ContinuousClock.now
        let reconnected = try #require(await connectedAt, "never reconnected") - back
        #expect(await live.events.firstConnected(from: eventsBefore + 1) != nil)
        #expect(await collector.waitUntil(count: framesBeforeOutage + 1, within: .seconds(2)))
        let firstFrameAfter = collector.all[framesBeforeOutage]
        let framesAgain = firstFrameAfter.time - back
        #expect(framesAgain < .seconds(1), "frames again after \(framesAgain)")
        #expect(firstFrameAfter.frame.index == lastIndexBefore + 1)
        #expect(engine.counters.reconnects == 1)
        #expect(engine.status.source == "mic")
        print("reconnect to \(kind) (\(signal == SIGKILL ? "KILL" : "TERM")): noticed \(noticed) after the kill; connected \(reconnected) and frames \(framesAgain) after the server was back")
    }

    /// Starting with no server: one `.disconnected`, then capture as soon as a server appears.
    @Test(arguments: SoundServerKind.testable)
    func startsBeforeTheServer(on kind: SoundServerKind) async throws {
        let server = try await onDedicatedThread { try kind.start() }
        defer { server.stop() }
        await onDedicatedThread { server.kill() }
        let engine = try PulseAudioEngine(configuration: .init(server: server.serverAddress), logger: LiveAudio.logger)
        defer { engine.stop() }
        let events = EventLog.recording(engine)
        try engine.start()
        let lost = try #require(await events.first { if case .disconnected = $0 { true } else { false } })
        guard case .disconnected(let error, _) = lost.event else { return }
        #expect(error.code == .connectionRefused, "\(error)")
        do {
            _ = try await engine.devices()
            Issue.record("devices() answered without a server")
        } catch {
            #expect(error.isServerUnavailable, "\(error)")
        }
        try await onDedicatedThread { try server.restart() }
        let connected = try #require(await events.firstConnected(within: .seconds(2)))
        #expect(connected.event == .connected(server: server.serverAddress, source: "mic", sink: "speaker"))
        #expect(engine.counters.reconnects == 0)
        #expect(await onDedicatedThread { engine.waitForFrames(timeout: .seconds(1)) })
    }

    /// `stop` ends everything: the event stream finishes and nothing reconnects.
    @Test(arguments: SoundServerKind.testable)
    func stopIsFinalAndIdempotent(on kind: SoundServerKind) async throws {
        let live = try await LiveAudio.start(on: kind)
        defer { live.server.stop() }
        live.engine.stop()
        live.engine.stop()
        #expect(!live.engine.status.isConnected)
        var remaining = 0
        for await _ in live.engine.events { remaining += 1 }
        #expect(remaining == 0)
        #expect(!live.engine.play(Cue.enter))
        await #expect(throws: PulseError.self) { try await live.engine.setSource(nil) }
    }
}
