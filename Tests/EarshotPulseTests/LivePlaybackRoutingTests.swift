import EarshotAudio
import EarshotPulse
import EarshotTestSupport
import Testing

@Suite("Playback routing", .enabled(if: TestPeers.pulseAudio))
struct LivePlaybackRoutingTests {
    /// `play` works the moment `.connected` has been sent.
    @Test func playWorksAsSoonAsConnected() async throws {
        let live = try await LiveAudio.start()
        defer { live.stop() }
        #expect(live.engine.play(Cue.enter))
        await live.engine.waitForPlayback()
    }

    /// Moved to `micfeed`, the engine's playback comes back through its own microphone: the
    /// sink really changed.
    @Test func playbackOnMicfeedIsHeardByTheMicrophone() async throws {
        let live = try await LiveAudio.start()
        defer { live.stop() }
        #expect(try await live.engine.setSink("micfeed") == "micfeed")
        let collector = FrameCollector(live.engine)
        defer { collector.stop() }
        #expect(await collector.waitUntil(count: 5))
        let start = collector.count
        let tone = SignalMeasure.sine(frequency: 700, seconds: 0.3, amplitude: 0.4)
        #expect(live.engine.play(tone))
        await live.engine.waitForPlayback()
        #expect(await collector.waitUntil(count: collector.count + 10))
        let heard = collector.samples(from: start)
        let offset = try #require(SignalMeasure.offset(of: tone, in: heard), "the microphone heard nothing")
        try #require(offset + tone.count <= heard.count)
        #expect(SignalMeasure.correlation(tone[...], heard[offset..<(offset + tone.count)]) > 0.99)
    }
}
