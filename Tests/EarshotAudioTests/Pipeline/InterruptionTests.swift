import EarshotAudio
import EarshotTurns
import Testing

/// The person talking while the assistant speaks, without a speaker: the pipeline's side of
/// barge-in (the reply is paused at once; a short burst resumes it, real speech takes the turn).
@Suite struct InterruptionTests {
    /// Frames of silence, then `speech` seconds of the fixture's first word onwards, then silence.
    static func frames(speech seconds: Double) throws -> [AudioFrame] {
        let clip = try Fixture.clip("speech/one_request_slt.wav")
        let all = Array(clip.frames)
        let onset = 85
        let speech = all[onset..<(onset + Int(seconds * 100))]
        var frames: [AudioFrame] = []
        for _ in 0..<100 { frames.append(.silence(index: frames.count)) }
        for frame in speech { frames.append(AudioFrame(index: frames.count, samples: frame.samples)) }
        for _ in 0..<150 { frames.append(.silence(index: frames.count)) }
        return frames
    }

    static func run(speech seconds: Double) throws -> (work: [String], phase: TurnPhase) {
        var pipeline = VoicePipeline(detector: SpectralVAD(), configuration: .init(transcribes: true))
        var work: [String] = []
        let record = { (item: SpeechWork) in
            switch item {
            case .effect(.pausePlayback): work.append("pause")
            case .effect(.resumePlayback): work.append("resume")
            case .effect(.stopPlayback): work.append("stop")
            case .beginUtterance: work.append("begin")
            case .effect(.synthesize): work.append("synthesize")
            default: break
            }
        }
        _ = pipeline.apply({ $0.replyRequested(turn: nil, text: "A long reply.") }, emit: { _ in }, work: record)
        _ = pipeline.apply({ $0.playbackStarted(reply: 1) }, emit: { _ in }, work: record)
        for frame in try frames(speech: seconds) { pipeline.process(frame, emit: { _ in }, work: record) }
        return (work, pipeline.machine.snapshot.phase)
    }

    @Test func aBurstShorterThanTheMinimumInterruptionResumesTheReply() throws {
        let run = try Self.run(speech: 0.28)
        #expect(run.work == ["synthesize", "pause", "resume"], "\(run.work)")
        #expect(run.phase == .speaking)
    }

    /// The reply pauses only once a pitch has held for the minimum voicing (70 ms), so that a
    /// desk sound never pauses it; a snippet too short to show that leaves the reply alone.
    @Test(arguments: [0.12, 0.2]) func aSnippetTooShortToShowAHeldPitchDoesNotPauseTheReply(seconds: Double) throws {
        let run = try Self.run(speech: seconds)
        #expect(run.work == ["synthesize"], "\(run.work)")
        #expect(run.phase == .speaking)
    }

    @Test func speechLongerThanTheMinimumInterruptionTakesTheTurn() throws {
        let run = try Self.run(speech: 1.2)
        #expect(run.work == ["synthesize", "pause", "stop", "begin"], "\(run.work)")
        #expect(run.phase == .hearing || run.phase == .thinking)
    }
}
