import EarshotAudio
import EarshotPulse
import EarshotTestSupport
import Foundation
import Testing

@Suite("Live capture from a private sound server", .enabled(if: TestPeers.soundServers), .tags(.live))
struct LiveEngineCaptureTests {
    /// A recording played into the virtual microphone comes out of the engine sample for sample as
    /// the server's source gave it (a `parec` beside it hears the same), 100 frames a second, without
    /// holes or drops. The source is compared with the file only by level: on a loaded machine a
    /// sound server's graph can miss a deadline (PipeWire without real-time priority, six busy
    /// processes on two cores: correlation with the file .987, once 0), and it fills the gap with
    /// silence for every client alike.
    @Test(arguments: SoundServerKind.testable)
    func fixtureArrivesIntactAtOneHundredFramesPerSecond(on kind: SoundServerKind) async throws {
        let live = try await LiveAudio.start(on: kind)
        defer { live.stop() }
        let collector = FrameCollector(live.engine)
        defer { collector.stop() }
        #expect(await collector.waitUntil(count: 20))

        let path = LiveAudio.fixture("real_utterance_in_white_noise.wav")
        let reference = try WAVFile.read(path).samples
        let beside = try live.server.record(from: "mic", sharedMemory: false)
        #expect(await LiveAudio.instant(within: .seconds(5)) { beside.sampleCount > 0 } != nil, "parec recorded nothing")
        let start = collector.count
        let besideStart = beside.sampleCount
        let player = try live.server.play(path)
        #expect(await onDedicatedThread { player.wait() } == 0)
        #expect(await collector.waitUntil(count: collector.count + 20))
        let besideEnough = besideStart + reference.count + 20 * AudioFrame.sampleCount
        #expect(await LiveAudio.instant(within: .seconds(5)) { beside.sampleCount >= besideEnough } != nil)
        let besideSamples = await onDedicatedThread { beside.stop() }

        let arrivals = collector.all.dropFirst(start)
        let recorded = collector.samples(from: start)
        let offset = try #require(SignalMeasure.offset(of: reference, in: recorded), "no sound was captured")
        try #require(offset + reference.count <= recorded.count, "the capture stopped early")
        let aligned = recorded[offset..<(offset + reference.count)]
        let besideOffset = try #require(SignalMeasure.offset(of: reference, in: besideSamples), "parec heard no sound")
        try #require(besideOffset + reference.count <= besideSamples.count, "parec stopped early")
        let besideAligned = besideSamples[besideOffset..<(besideOffset + reference.count)]
        let correlation = SignalMeasure.correlation(reference[...], aligned)
        let rmsRatio = SignalMeasure.rms(aligned) / SignalMeasure.rms(reference)
        let largestDifference = zip(besideAligned, aligned).map { abs($0 - $1) }.max() ?? 1
        let largestDifferenceFromFile = zip(reference, aligned).map { abs($0 - $1) }.max() ?? 1
        #expect(abs(rmsRatio - 1) < 0.25, "RMS ratio \(rmsRatio)")
        #expect(largestDifference == 0, "largest sample difference from parec's recording \(largestDifference)")

        let span = arrivals.last!.time - arrivals.first!.time
        let framesPerSecond = Double(arrivals.last!.frame.index - arrivals.first!.frame.index) / (span / .seconds(1))
        #expect(abs(framesPerSecond - 100) < 5, "\(framesPerSecond) frames/s")
        let indices = arrivals.map(\.frame.index)
        #expect(zip(indices, indices.dropFirst()).allSatisfy { $1 == $0 + 1 }, "frame indices skip")
        let counters = live.engine.counters
        #expect(counters.holeFrames == 0)
        #expect(counters.overflowFrames == 0)
        #expect(counters.reconnects == 0)
        print("capture from \(kind): \(String(format: "%.1f", framesPerSecond)) frames/s, offset \(offset) samples, correlation \(correlation), largest difference from the file \(largestDifferenceFromFile), from parec \(largestDifference)")
    }

    /// Frames keep coming at the microphone's pace while nothing plays, and none are lost.
    @Test(arguments: SoundServerKind.testable)
    func steadyStateLosesNothing(on kind: SoundServerKind) async throws {
        let live = try await LiveAudio.start(on: kind)
        defer { live.stop() }
        let collector = FrameCollector(live.engine)
        defer { collector.stop() }
        #expect(await collector.waitUntil(count: 10))
        let first = collector.all.last!
        #expect(await collector.waitUntil(count: collector.count + 200))
        let last = collector.all.last!
        let rate = Double(last.frame.index - first.frame.index) / ((last.time - first.time) / .seconds(1))
        #expect(abs(rate - 100) < 5, "\(rate) frames/s")
        let indices = collector.all.map(\.frame.index)
        #expect(indices == Array(indices[0]..<(indices[0] + indices.count)))
        #expect(live.engine.counters.holeFrames == 0)
        #expect(live.engine.counters.overflowFrames == 0)
        #expect(live.engine.counters.framesCaptured >= indices.count)
    }

    /// A consumer that stops reading loses the newest frames, counted, and the indices show it.
    @Test(arguments: SoundServerKind.testable)
    func stalledConsumerOverflowsTheRing(on kind: SoundServerKind) async throws {
        let live = try await LiveAudio.start(on: kind) { $0.ringDuration = .milliseconds(100) }
        defer { live.stop() }
        try await Task.sleep(for: .milliseconds(400))
        let counters = live.engine.counters
        #expect(counters.overflowFrames > 10, "\(counters)")
        // The ring's ten, and any frame captured while they were read (a slow build reads slowly).
        var frames: [AudioFrame] = []
        while let frame = live.engine.popFrame() { frames.append(frame) }
        try #require(frames.count >= 10)
        let held = frames.prefix(10).map(\.index)
        #expect(held == Array(held[0]..<(held[0] + held.count)), "the ring held ten frames in a row")
        if frames.count == 10 {
            #expect(live.engine.waitForFrames(timeout: .seconds(1)))
            frames.append(try #require(live.engine.popFrame()))
        }
        #expect(frames[10].index > frames[9].index + 1, "a gap shows the dropped frames")
    }
}
