import EarshotAudio
import EarshotPulse
import EarshotTestSupport
import Foundation
import Testing

@Suite("Live playback into a private sound server", .enabled(if: TestPeers.soundServers), .tags(.live))
struct LivePlaybackTests {
    /// A tone played by the engine comes out of the speaker's monitor at the same level and
    /// length, and the engine says when it has finished.
    @Test(arguments: SoundServerKind.testable)
    func toneReachesTheSpeaker(on kind: SoundServerKind) async throws {
        let live = try await LiveAudio.start(on: kind)
        defer { live.stop() }
        let recording = try live.server.record()
        try await Task.sleep(for: .milliseconds(100))
        let tone = SignalMeasure.sine(frequency: 1_000, seconds: 0.5, amplitude: 0.5)
        let before = live.events.all.count
        let started = ContinuousClock.now
        #expect(live.engine.play(tone))
        #expect(ContinuousClock.now - started < .milliseconds(100), "play blocked the caller")
        await live.engine.waitForPlayback()
        let finished = ContinuousClock.now - started
        #expect(await live.events.first(from: before) { $0 == .playbackFinished } != nil)
        try await Task.sleep(for: .milliseconds(150))
        let recorded = await onDedicatedThread { recording.stop() }

        let offset = try #require(SignalMeasure.offset(of: tone, in: recorded), "nothing was played")
        try #require(offset + tone.count <= recorded.count)
        let played = recorded[offset..<(offset + tone.count)]
        #expect(SignalMeasure.correlation(tone[...], played) > SignalMeasure.likeness)
        let amplitude = SignalMeasure.amplitude(of: 1_000, in: played)
        #expect(abs(amplitude - 0.5) < SignalMeasure.levelTolerance, "amplitude \(amplitude)")
        let after = recorded.dropFirst(offset + tone.count + 160)
        #expect(SignalMeasure.rms(after) < 0.001, "sound after the tone ended")
        // Never early; late only by the server's latency (plus scheduling on a busy machine).
        #expect(finished > .milliseconds(450) && finished < .seconds(2), "finished after \(finished)")
        print("playback on \(kind): 0.5 s tone reported finished after \(finished)")
    }

    /// Queued pieces play back to back, in order.
    @Test(arguments: SoundServerKind.testable)
    func queuedSamplesPlayInOrder(on kind: SoundServerKind) async throws {
        let live = try await LiveAudio.start(on: kind)
        defer { live.stop() }
        let recording = try live.server.record()
        try await Task.sleep(for: .milliseconds(100))
        let low = SignalMeasure.sine(frequency: 500, seconds: 0.2)
        let high = SignalMeasure.sine(frequency: 1_500, seconds: 0.2)
        #expect(live.engine.play(low))
        #expect(live.engine.play(high))
        await live.engine.waitForPlayback()
        try await Task.sleep(for: .milliseconds(100))
        let recorded = await onDedicatedThread { recording.stop() }
        let both = low + high
        let offset = try #require(SignalMeasure.offset(of: both, in: recorded))
        try #require(offset + both.count <= recorded.count)
        #expect(SignalMeasure.correlation(both[...], recorded[offset..<(offset + both.count)]) > SignalMeasure.likeness)
    }

    /// `stopPlayback` silences the speaker within a few milliseconds of the call, as heard by a
    /// second engine capturing the speaker's monitor.
    @Test(arguments: SoundServerKind.testable)
    func stopPlaybackSilencesTheSpeakerAtOnce(on kind: SoundServerKind) async throws {
        let live = try await LiveAudio.start(on: kind)
        defer { live.stop() }
        let monitor = try await LiveAudio.start(server: live.server) { $0.source = "speaker.monitor" }
        defer { monitor.engine.stop() }
        let heard = FrameCollector(monitor.engine)
        defer { heard.stop() }

        #expect(live.engine.play(SignalMeasure.sine(frequency: 1_000, seconds: 3)))
        let loud = { (arrival: FrameCollector.Arrival) in SignalMeasure.rms(arrival.frame) > 0.1 }
        #expect(await heard.waitUntil(within: .seconds(2)) { $0.filter(loud).count >= 30 }, "the tone never played")

        let stopCalled = ContinuousClock.now
        live.engine.stopPlayback()
        let stopReturned = ContinuousClock.now
        await live.engine.waitForPlayback()
        try await Task.sleep(for: .milliseconds(300))
        let arrivals = heard.all
        // The frame being captured when stop was called, and the first silent one after it.
        let atStop = try #require(arrivals.lastIndex { $0.time <= stopCalled })
        let firstSilent = try #require(arrivals[atStop...].firstIndex { SignalMeasure.rms($0.frame) < 0.001 })
        let tail = arrivals[firstSilent...]
        #expect(tail.count > 20 && tail.allSatisfy { SignalMeasure.rms($0.frame) < 0.001 }, "sound after the stop")
        let latency = Duration.milliseconds(10 * (firstSilent - atStop))
        #expect(latency <= .milliseconds(60), "silent \(latency) after stopPlayback")
        #expect(stopReturned - stopCalled < .milliseconds(50), "stopPlayback blocked the caller")
        print("stopPlayback on \(kind): speaker silent within \(latency) of the call (call took \(stopReturned - stopCalled))")

        // Playback works again after a stop.
        let recording = try live.server.record()
        try await Task.sleep(for: .milliseconds(100))
        #expect(live.engine.play(Cue.enter))
        await live.engine.waitForPlayback()
        try await Task.sleep(for: .milliseconds(100))
        let recorded = await onDedicatedThread { recording.stop() }
        let offset = try #require(SignalMeasure.offset(of: Cue.enter, in: recorded, threshold: 0.01), "nothing played after a stop")
        try #require(offset + Cue.enter.count <= recorded.count)
        #expect(SignalMeasure.correlation(Cue.enter[...], recorded[offset..<(offset + Cue.enter.count)]) > SignalMeasure.likeness)
    }

    /// A lost server releases anyone waiting for playback.
    @Test(arguments: SoundServerKind.testable)
    func serverLossEndsPlayback(on kind: SoundServerKind) async throws {
        let live = try await LiveAudio.start(on: kind)
        defer { live.stop() }
        #expect(live.engine.play(SignalMeasure.sine(frequency: 440, seconds: 10)))
        try await Task.sleep(for: .milliseconds(100))
        await onDedicatedThread { live.server.kill() }
        let started = ContinuousClock.now
        await live.engine.waitForPlayback()
        #expect(ContinuousClock.now - started < .milliseconds(500))
        #expect(!live.engine.play(Cue.leave))
    }
}

@Suite("Playback routing", .enabled(if: TestPeers.soundServers), .tags(.live))
struct LivePlaybackRoutingTests {
    /// `play` works the moment `.connected` has been sent.
    @Test(arguments: SoundServerKind.testable)
    func playWorksAsSoonAsConnected(on kind: SoundServerKind) async throws {
        let live = try await LiveAudio.start(on: kind)
        defer { live.stop() }
        #expect(live.engine.play(Cue.enter))
        await live.engine.waitForPlayback()
    }

    /// Moved to `micfeed`, the engine's playback comes back through its own microphone: the
    /// sink really changed.
    @Test(arguments: SoundServerKind.testable)
    func playbackOnMicfeedIsHeardByTheMicrophone(on kind: SoundServerKind) async throws {
        let live = try await LiveAudio.start(on: kind)
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
        // The tone itself, not a look-alike: a graph starved by a sanitizer may drop a period of it.
        #expect(SignalMeasure.correlation(tone[...], heard[offset..<(offset + tone.count)]) > 0.8)
    }
}
