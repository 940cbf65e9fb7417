import EarshotAudio
import EarshotPulse
import EarshotTestSupport
import Foundation
import Testing

@Suite("Ducking playback", .enabled(if: TestPeers.pulseAudio), .tags(.live))
struct LiveDuckingTests {
    /// A steady tone ducked to 0.25 drops by 12 dB at once, as heard by a second engine capturing
    /// the speaker's monitor, and comes back to its level when restored.
    @Test func duckingLowersTheToneTwelveDecibelsAndRestoresIt() async throws {
        let live = try await LiveAudio.start()
        defer { live.stop() }
        let monitor = try await LiveAudio.start(server: live.server) { $0.source = "speaker.monitor" }
        defer { monitor.engine.stop() }
        let heard = FrameCollector(monitor.engine)
        defer { heard.stop() }

        #expect(live.engine.play(SignalMeasure.sine(frequency: 1_000, seconds: 4, amplitude: 0.5)))
        let loud = { (arrival: FrameCollector.Arrival) in SignalMeasure.rms(arrival.frame) > 0.1 }
        #expect(await heard.waitUntil(within: .seconds(2)) { $0.filter(loud).count >= 50 }, "the tone never played")

        // Levels are medians of the frames that arrived between the calls: a busy machine delays
        // delivery, which shifts a few frames across each call but not the median.
        let atDuck = heard.count
        let duckCalled = ContinuousClock.now
        live.engine.setPlaybackVolume(0.25)
        let duckReturned = ContinuousClock.now
        try await Task.sleep(for: .milliseconds(500))
        let sinkInputs = try await onDedicatedThread { try live.server.pactl("list", "sink-inputs") }
        #expect(await heard.waitUntil(count: atDuck + 80))
        let atRestore = heard.count
        let restoreCalled = ContinuousClock.now
        live.engine.setPlaybackVolume(1)
        #expect(await heard.waitUntil(count: atRestore + 60))
        live.engine.stopPlayback()

        let arrivals = heard.all
        func level(_ range: Range<Int>) -> Double {
            let levels = arrivals[range].map { SignalMeasure.rms($0.frame) }.sorted()
            return levels.isEmpty ? 0 : levels[levels.count / 2]
        }
        let before = level((atDuck - 30)..<atDuck)
        let ducked = level(atDuck..<atRestore)
        let restored = level(atRestore..<(atRestore + 60))
        let duckedDB = 20 * log10(ducked / before)
        let restoredDB = 20 * log10(restored / before)
        #expect(abs(before - 0.5 / 2.squareRoot()) < 0.01, "level before ducking \(before)")
        #expect(abs(duckedDB + 12.04) < 1, "ducked by \(duckedDB) dB")
        #expect(abs(restoredDB) < 0.5, "restored to \(restoredDB) dB")
        #expect(sinkInputs.contains("-12.04 dB"), "pactl shows no ducked stream:\n\(sinkInputs)")
        #expect(duckReturned - duckCalled < .milliseconds(50), "setPlaybackVolume blocked the caller")

        // How soon the speaker got quieter (half-way in dB) after each call, as the monitor heard it.
        func firstFrame(after instant: ContinuousClock.Instant, where condition: (Double) -> Bool) -> Duration? {
            arrivals.first { $0.time > instant && condition(SignalMeasure.rms($0.frame)) }.map { $0.time - instant }
        }
        let duckLatency = try #require(firstFrame(after: duckCalled) { $0 < before * 0.5 }, "never got quieter")
        let restoreLatency = try #require(firstFrame(after: restoreCalled) { $0 > before * 0.5 }, "never got louder")
        #expect(duckLatency < .milliseconds(300), "quieter \(duckLatency) after the call")
        #expect(restoreLatency < .milliseconds(300), "louder \(restoreLatency) after the call")
        print(String(format: "ducking: %.2f dB while ducked to 0.25, %.2f dB after restoring;", duckedDB, restoredDB)
            + " heard \(duckLatency) / \(restoreLatency) after the calls (call took \(duckReturned - duckCalled))")
    }

    /// The gain holds for the stream opened after the server came back.
    @Test func gainHoldsAcrossReconnection() async throws {
        let live = try await LiveAudio.start()
        defer { live.stop() }
        live.engine.setPlaybackVolume(0.5)
        let before = live.events.all.count
        await onDedicatedThread { live.server.kill() }
        try await onDedicatedThread { try live.server.restart() }
        #expect(await live.events.firstConnected(from: before) != nil, "never reconnected")

        let recording = try live.server.record()
        try await Task.sleep(for: .milliseconds(100))
        let tone = SignalMeasure.sine(frequency: 1_000, seconds: 0.5, amplitude: 0.5)
        #expect(live.engine.play(tone))
        await live.engine.waitForPlayback()
        try await Task.sleep(for: .milliseconds(100))
        let recorded = await onDedicatedThread { recording.stop() }
        let offset = try #require(SignalMeasure.offset(of: tone, in: recorded), "nothing was played")
        try #require(offset + tone.count <= recorded.count)
        let amplitude = SignalMeasure.amplitude(of: 1_000, in: recorded[offset..<(offset + tone.count)])
        #expect(abs(amplitude - 0.25) < SignalMeasure.levelTolerance, "amplitude \(amplitude) after reconnecting at gain 0.5")
    }

    /// Out-of-range gains are clamped rather than refused.
    @Test func gainIsClamped() async throws {
        let live = try await LiveAudio.start()
        defer { live.stop() }
        live.engine.setPlaybackVolume(3)
        live.engine.setPlaybackVolume(-1)
        try await Task.sleep(for: .milliseconds(100))
        let sinkInputs = try await onDedicatedThread { try live.server.pactl("list", "sink-inputs") }
        #expect(sinkInputs.contains("Volume: mono: 0 /"), "\(sinkInputs)")
    }
}
