import EarshotAudio
import EarshotTurns
import Testing

/// A turn held by key through the pipeline: it opens at the hold and ends at the release, the
/// endpointer's pauses inside it ending nothing.
@Suite struct HeldTurnTests {
    struct Run {
        var events: [PipelineEvent] = []
        var work: [SpeechWork] = []
        var pipeline: VoicePipeline<SpectralVAD>
        var frames = 0
    }

    /// Holds from `holdAt` (frame index) to the end of `mid_sentence_pause.wav`, then releases,
    /// with end-of-turn silences far shorter than its 1.13 s pause.
    static func run(holdAt: Int, startsListening: Bool) throws -> Run {
        let clip = try Fixture.clip("endpointer/mid_sentence_pause.wav")
        var endpointer = Endpointer.Configuration()
        endpointer.endOfTurnSilenceMilliseconds = 300
        endpointer.maximumEndSilenceMilliseconds = 500
        var run = Run(pipeline: VoicePipeline(
            detector: SpectralVAD(),
            configuration: .init(endpointer: endpointer, startsListening: startsListening, transcribes: true)
        ))
        for frame in clip.frames {
            run.frames += 1
            if frame.index == holdAt {
                _ = run.pipeline.apply({ $0.hold() }, emit: { run.events.append($0) }, work: { run.work.append($0) })
            }
            run.pipeline.process(frame, emit: { run.events.append($0) }, work: { run.work.append($0) })
        }
        _ = run.pipeline.apply({ $0.release() }, emit: { run.events.append($0) }, work: { run.work.append($0) })
        return run
    }

    static func speech(_ events: [PipelineEvent]) -> [String] {
        events.compactMap { event in
            switch event {
            case .speechStarted(let turn, let audioStart, let time): "start \(turn) \(Int((audioStart * 100).rounded())) \(Int((time * 100).rounded()))"
            case .speechEnded(let turn, let reason, let time): "end \(turn) \(reason.rawValue) \(Int((time * 100).rounded()))"
            case .speechEagerEnd(let turn, _): "eager_end \(turn)"
            case .speechResumed(let turn, _): "resumed \(turn)"
            default: nil
            }
        }
    }

    @Test func theHeldTurnRunsFromTheHoldToTheReleaseThroughThePause() throws {
        let run = try Self.run(holdAt: 20, startsListening: true)
        // Frames as times: the hold before frame 20, the release after the last.
        #expect(Self.speech(run.events) == ["start 1 20 20", "end 1 released \(run.frames)"])
        #expect(run.pipeline.machine.snapshot.phase == .thinking)
        var indices: [Int] = []
        var ended = false
        for item in run.work {
            switch item {
            case .beginUtterance(let turn, let audio):
                #expect(turn == 1)
                #expect(audio.isEmpty, "no pre-roll: the turn starts at the hold")
            case .utteranceAudio(let turn, let frame):
                #expect(turn == 1 && !ended)
                indices.append(frame.index)
            case .effect(.endUtterance(1)):
                ended = true
            case .effect(.openMicrophone), .utterancePaused(1):
                break
            default:
                Issue.record("unexpected work \(item)")
            }
        }
        #expect(ended)
        #expect(indices == Array(20..<run.frames), "every frame from the hold to the release, once")
    }

    @Test func withVoiceModeOffTheMicrophoneOpensForTheHoldAndIsSilencedAtTheRelease() throws {
        let run = try Self.run(holdAt: 0, startsListening: false)
        let effects = run.work.compactMap { item -> TurnEffect? in
            if case .effect(let effect) = item { return effect }
            return nil
        }
        #expect(effects == [.openMicrophone, .endUtterance(turn: 1), .silenceMicrophone])
        #expect(Self.speech(run.events).count == 2)
    }
}
