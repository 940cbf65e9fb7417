import EarshotAudio
import EarshotTurns
import Testing

/// New settings given to a running pipeline between two frames (a configuration reload).
@Suite struct ReconfigurationTests {
    /// Runs the fixture, reconfiguring at `frame` (never when nil); returns the audio time from
    /// the end of the speech to `thinking`, and the speech start's `audio_start`.
    static func run(reconfigureAt frame: Int?, endpointer: Endpointer.Configuration, threshold: Float = 0.5) throws -> (gap: Double?, audioStart: Double?) {
        let clip = try Fixture.clip("endpointer/utterance_after_silence.wav")
        var pipeline = VoicePipeline(detector: SpectralVAD(), configuration: .init())
        var ended: Double?, thinking: Double?, audioStart: Double?
        let emit = { (event: PipelineEvent) in
            switch event {
            case .speechEnded(_, _, let time): ended = time
            case .speechStarted(_, let start, _): audioStart = start
            case .state(let snapshot, let time) where snapshot.phase == .thinking: thinking = time
            default: break
            }
        }
        // The file ends 0.98 s after the speech: two more seconds of silence leave room for a longer end.
        let frames = Array(clip.frames)
        let silence = (frames.count..<(frames.count + 200)).map { AudioFrame.silence(index: $0) }
        for audio in frames + silence {
            if audio.index == frame {
                pipeline.reconfigure(endpointer: endpointer, turns: .standard) { $0.setThreshold(threshold) }
            }
            pipeline.process(audio, emit: emit)
        }
        pipeline.finish(emit: emit)
        return (thinking.flatMap { thinking in ended.map { thinking - $0 } }, audioStart)
    }

    @Test func aLongerEndSilenceGivenMidUtteranceEndsThatUtteranceLater() throws {
        let before = try Self.run(reconfigureAt: nil, endpointer: .init())
        // 1.5 s into the file: the person is speaking (0.82 to 2.11 s).
        let during = try Self.run(reconfigureAt: 150, endpointer: .init(endOfTurnSilenceMilliseconds: 1500))
        let gapBefore = try #require(before.gap)
        let gapDuring = try #require(during.gap)
        #expect(abs(gapBefore - 0.63) < 0.011, "\(gapBefore)")
        #expect(abs(gapDuring - 1.53) < 0.011, "\(gapDuring)")
    }

    @Test func aLongerPrefixPaddingReachesFurtherBack() throws {
        let standard = try Self.run(reconfigureAt: nil, endpointer: .init())
        let padded = try Self.run(reconfigureAt: 10, endpointer: .init(prefixPaddingMilliseconds: 500))
        let start = try #require(standard.audioStart)
        let paddedStart = try #require(padded.audioStart)
        #expect(abs((start - paddedStart) - 0.2) < 0.011, "\(start) vs \(paddedStart)")
    }

    @Test func aThresholdAboveEveryProbabilityHearsNoSpeech() throws {
        let deaf = try Self.run(reconfigureAt: 10, endpointer: .init(), threshold: 1.01)
        #expect(deaf.audioStart == nil)
        #expect(deaf.gap == nil)
    }
}
