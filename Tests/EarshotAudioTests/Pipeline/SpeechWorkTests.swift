import EarshotAudio
import EarshotTurns
import Testing

/// What the pipeline asks of a transcriber, with `transcribes` on.
@Suite struct SpeechWorkTests {
    struct Run {
        var events: [PipelineEvent] = []
        var work: [SpeechWork] = []
        var pipeline: VoicePipeline<SpectralVAD>
    }

    static func run(_ name: String) throws -> Run {
        let clip = try Fixture.clip("endpointer/" + name)
        var run = Run(pipeline: VoicePipeline(detector: SpectralVAD(), configuration: .init(transcribes: true)))
        for frame in clip.frames {
            run.pipeline.process(frame, emit: { run.events.append($0) }, work: { run.work.append($0) })
        }
        run.pipeline.finish(emit: { run.events.append($0) }, work: { run.work.append($0) })
        return run
    }

    @Test func anUtterancesAudioRunsWithoutGapsFromItsPrefixToItsEnd() throws {
        let run = try Self.run("utterance_after_silence.wav")
        let audioStart = try #require(run.events.compactMap { event -> Double? in
            if case .speechStarted(_, let start, _) = event { return start }
            return nil
        }.first)
        var indices: [Int] = []
        var ended = false
        // How much audio had gone out at each pause: the end of speech comes with one.
        var pauses: [Int] = []
        for item in run.work {
            switch item {
            case .beginUtterance(let turn, let audio):
                #expect(turn == 1)
                indices += audio.map(\.index)
            case .utteranceAudio(let turn, let frame):
                #expect(turn == 1)
                #expect(!ended)
                indices.append(frame.index)
            case .utterancePaused(let turn):
                #expect(turn == 1)
                #expect(!ended)
                pauses.append(indices.count)
            case .effect(.endUtterance(let turn)):
                #expect(turn == 1)
                ended = true
            case .effect(.openMicrophone):
                #expect(indices.isEmpty, "voice mode starts with the stream")
            default:
                Issue.record("unexpected work \(item)")
            }
        }
        #expect(ended)
        #expect(!pauses.isEmpty, "the person fell silent before the end: what was gathered goes to the transcriber then")
        let first = try #require(indices.first)
        #expect(abs(Double(first) * AudioFrame.duration - audioStart) < 0.005)
        #expect(indices == Array(first..<(first + indices.count)))
        #expect(indices.count > 100)
    }

    /// A transcriber repeats its hypothesis as it takes more audio (to say how far its words
    /// reach); front ends see each hypothesis once.
    @Test func aRepeatedPartialTranscriptGoesOutOnce() throws {
        var run = try Self.run("utterance_after_silence.wav")
        var events: [PipelineEvent] = []
        for covered in [1600, 3200, 4800] {
            run.pipeline.transcript(turn: 1, text: "hello", final: false, coveredSamples: covered, emit: { events.append($0) })
        }
        run.pipeline.transcript(turn: 1, text: "hello there", final: false, coveredSamples: 6400, emit: { events.append($0) })
        let partials = events.compactMap { event -> String? in
            if case .transcript(_, let text, false, _) = event { text } else { nil }
        }
        #expect(partials == ["hello", "hello there"])
    }

    @Test func theTurnWaitsInThinkingForItsTranscript() throws {
        var run = try Self.run("utterance_after_silence.wav")
        #expect(run.pipeline.machine.snapshot.phase == .thinking)
        var events: [PipelineEvent] = []
        var work: [SpeechWork] = []
        run.pipeline.transcript(turn: 1, text: "hello", final: false, emit: { events.append($0) })
        #expect(run.pipeline.machine.snapshot.phase == .thinking)
        run.pipeline.transcript(turn: 1, text: "hello there", final: true, emit: { events.append($0) }, work: { work.append($0) })
        #expect(events.contains(.transcript(turn: 1, text: "hello", final: false, time: run.pipeline.now)))
        #expect(events.contains(.transcript(turn: 1, text: "hello there", final: true, time: run.pipeline.now)))
        guard case .effect(.requestReply(1, "hello there")) = work.first else {
            Issue.record("expected a reply request, got \(work)")
            return
        }
    }

    @Test func aFailedTranscriptionReturnsToListeningAndKeepsTheTurnsAudio() throws {
        var run = try Self.run("utterance_after_silence.wav")
        var events: [PipelineEvent] = []
        var work: [SpeechWork] = []
        run.pipeline.transcriptionFailed(
            turn: 1, message: "The server is away.", retryIn: 0.5, emit: { events.append($0) }, work: { work.append($0) }
        )
        #expect(run.pipeline.machine.snapshot.phase == .listening)
        #expect(run.pipeline.machine.snapshot.error == .transcriberUnavailable(turn: 1))
        #expect(events.first == .error(.transcriberUnavailable(turn: 1), message: "The server is away.", retryIn: 0.5, time: run.pipeline.now))
        #expect(work.isEmpty, "nothing is discarded: \(work)")
    }

    @Test func withoutATranscriberNoWorkIsAskedFor() throws {
        let clip = try Fixture.clip("endpointer/utterance_after_silence.wav")
        var pipeline = VoicePipeline(detector: SpectralVAD())
        var work: [SpeechWork] = []
        for frame in clip.frames { pipeline.process(frame, emit: { _ in }, work: { work.append($0) }) }
        #expect(work.count == 1)
        if case .effect(.openMicrophone) = work.first {} else { Issue.record("only the microphone opens: \(work)") }
        #expect(pipeline.machine.snapshot.phase == .listening)
    }
}
