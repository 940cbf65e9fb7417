import EarshotAudio
import EarshotTurns
import Testing

/// Voice mode with a wake phrase: speech goes to the spotter until it hears the phrase, then
/// turns follow until `idleAfter` passes without speech. The spotter here is the test, which
/// reports the phrase where it chooses (the real one is in `earshot replay --wake`'s tests).
@Suite struct WakePipelineTests {
    struct Run {
        var events: [PipelineEvent] = []
        var work: [SpeechWork] = []
        var pipeline: VoicePipeline<SpectralVAD>

        init(idleAfter: Double = 8) {
            pipeline = VoicePipeline(detector: SpectralVAD(), configuration: .init(
                transcribes: false, wake: .init(phrase: "hey computer", idleAfter: idleAfter)
            ))
        }

        /// Feeds `clip`; the test's spotter hears the phrase once, `heardAfterFrames` into a stretch.
        mutating func feed(_ clip: AudioClip, heardAfterFrames: Int? = nil) {
            var stretchFrames = 0
            var heardOnce = false
            var pendingHeard: Int?
            for frame in clip.frames {
                pipeline.process(frame, emit: { events.append($0) }, work: { item in
                    work.append(item)
                    switch item {
                    case .beginWakeAudio(let audio):
                        stretchFrames = audio.count
                    case .wakeAudio(let frame):
                        stretchFrames += 1
                        if let heardAfterFrames, stretchFrames == heardAfterFrames, !heardOnce {
                            heardOnce = true
                            pendingHeard = frame.index
                        }
                    default: break
                    }
                })
                if let index = pendingHeard {
                    pendingHeard = nil
                    pipeline.wakePhraseHeard(atFrame: index, emit: { events.append($0) }, work: { work.append($0) })
                }
            }
            pipeline.finish(emit: { events.append($0) }, work: { work.append($0) })
        }

        var states: [TurnSnapshot] {
            events.compactMap { if case .state(let snapshot, _) = $0 { snapshot } else { nil } }
        }

        var wakes: [Double] {
            events.compactMap { if case .wake(_, let time) = $0 { time } else { nil } }
        }

        /// Turns whose speech started, as front ends are told.
        var turnsStarted: [Int] {
            events.compactMap { if case .speechStarted(let turn, _, _) = $0 { turn } else { nil } }
        }

        var turnsBegun: [Int] {
            work.compactMap { if case .effect(.beginUtterance(let turn)) = $0 { turn } else { nil } }
                + work.compactMap { if case .beginUtterance(let turn, _) = $0 { turn } else { nil } }
        }
    }

    @Test func waitingSpeechGoesToTheSpotterAndBeginsNoTurn() throws {
        var run = Run()
        run.feed(try Fixture.clip("endpointer/two_phrases_long_pause.wav"))
        #expect(run.turnsBegun.isEmpty)
        #expect(run.wakes.isEmpty)
        #expect(!run.events.contains { if case .speechStarted = $0 { true } else { false } })
        #expect(run.states.last?.phase == .listening)
        #expect(run.states.last?.waitingFor == "hey computer")
        #expect(run.pipeline.snapshot.waitingFor == "hey computer")
        // Two stretches of speech, each begun and ended, its frames in order without gaps.
        var stretches: [[Int]] = []
        for item in run.work {
            switch item {
            case .beginWakeAudio(let audio): stretches.append(audio.map(\.index))
            case .wakeAudio(let frame): stretches[stretches.count - 1].append(frame.index)
            default: break
            }
        }
        #expect(stretches.count == 2)
        for stretch in stretches {
            let first = try #require(stretch.first)
            #expect(stretch == Array(first..<(first + stretch.count)))
        }
        let begins = run.work.filter { if case .beginWakeAudio = $0 { true } else { false } }.count
        let ends = run.work.filter { if case .endWakeAudio = $0 { true } else { false } }.count
        #expect(begins == ends)
    }

    @Test func thePhraseWakesItAndTheNextUtteranceIsATurn() throws {
        var run = Run()
        // The spotter hears the phrase 50 frames into the first stretch (the first phrase).
        run.feed(try Fixture.clip("endpointer/two_phrases_long_pause.wav"), heardAfterFrames: 50)
        let wake = try #require(run.wakes.first)
        #expect(run.wakes.count == 1)
        #expect(wake < 2.0, "heard in the first phrase (0.8 to 1.79 s)")
        #expect(run.work.contains { if case .wakeCue = $0 { true } else { false } })
        // After the wake, the state no longer waits; the second phrase is turn 1, heard after the phrase.
        let wakeIndex = try #require(run.events.firstIndex { if case .wake = $0 { true } else { false } })
        guard case .state(let awake, _) = run.events[wakeIndex + 1] else {
            Issue.record("a state follows the wake event")
            return
        }
        #expect(awake.waitingFor == nil)
        #expect(awake.phase == .listening)
        let starts = run.events.compactMap { if case .speechStarted(let turn, let audioStart, _) = $0 { (turn, audioStart) } else { nil } }
        #expect(starts.contains { $0.0 == 1 && $0.1 >= wake })
        #expect(run.turnsBegun.allSatisfy { $0 >= 1 })
    }

    @Test func afterIdleAfterWithoutSpeechItWaitsAgain() throws {
        // The two phrases, then 4 s of quiet, then the two phrases again.
        let phrases = try Fixture.clip("endpointer/two_phrases_long_pause.wav").samples
        let clip = AudioClip(samples: phrases + [Float](repeating: 0, count: 4 * AudioFrame.sampleRate) + phrases)
        var run = Run(idleAfter: 2)
        run.feed(clip, heardAfterFrames: 50)
        // Awake in the first phrase; the rest of the conversation is turns, until 2 s of quiet.
        #expect(run.wakes.count == 1)
        let wake = try #require(run.wakes.first)
        let waitingAgain = try #require(run.events.compactMap { event -> Double? in
            if case .state(let snapshot, let time) = event, snapshot.waitingFor != nil, time > wake { return time }
            return nil
        }.first)
        #expect(waitingAgain > 5.28 && waitingAgain < 9.28, "between the end of the first recording and the second")
        let turnStarts = run.events.compactMap { if case .speechStarted(_, _, let time) = $0 { time } else { nil } }
        #expect(!turnStarts.isEmpty)
        // Speech going on through the wake is a turn from the detector's next verdict (3 frames of look-ahead behind).
        #expect(turnStarts.allSatisfy { $0 >= wake - 0.05 && $0 < waitingAgain }, "\(turnStarts), woken at \(wake), waiting at \(waitingAgain)")
        // The second recording went to the spotter again (the test's spotter hears nothing more).
        #expect(run.states.last?.waitingFor == "hey computer")
    }

    @Test func talkStandsInForThePhraseAndTheNextUtteranceIsATurn() throws {
        var run = Run()
        _ = run.pipeline.apply({ $0.start() }, emit: { run.events.append($0) })
        #expect(run.pipeline.snapshot.waitingFor == "hey computer")
        let action = run.pipeline.talk(emit: { run.events.append($0) }, work: { run.work.append($0) })
        #expect(action == .ignored(.alreadyListening), "voice mode already listens: the key only opens the gate")
        #expect(run.pipeline.snapshot.waitingFor == nil)
        #expect(run.states.last?.waitingFor == nil, "front ends are told it no longer waits")
        run.feed(try Fixture.clip("endpointer/two_phrases_long_pause.wav"))
        #expect(run.wakes.isEmpty, "no phrase was heard")
        #expect(run.turnsStarted.contains(1))
        #expect(!run.work.contains { if case .beginWakeAudio = $0 { true } else { false } })
    }

    @Test func aReplySaidWhileWaitingLetsThePersonAnswerWithoutThePhrase() throws {
        var run = Run()
        _ = run.pipeline.apply({ $0.start() }, emit: { run.events.append($0) })
        _ = run.pipeline.apply({ $0.replyRequested(turn: nil, text: "Your timer is done. Another?") }, emit: { run.events.append($0) })
        _ = run.pipeline.apply({ $0.playbackStarted(reply: 1) }, emit: { run.events.append($0) })
        let speaking = try #require(run.states.last)
        #expect(speaking.phase == .speaking)
        #expect(speaking.waitingFor == nil)
        _ = run.pipeline.apply({ $0.playbackFinished(reply: 1) }, emit: { run.events.append($0) })
        #expect(run.pipeline.snapshot.phase == .listening)
        #expect(run.pipeline.snapshot.waitingFor == nil)
        run.feed(try Fixture.clip("endpointer/two_phrases_long_pause.wav"))
        #expect(!run.turnsStarted.isEmpty, "the answer is a turn")
        #expect(run.wakes.isEmpty)
    }

    @Test func withoutAWakePhraseNothingWaits() throws {
        var pipeline = VoicePipeline(detector: SpectralVAD(), configuration: .init())
        var events: [PipelineEvent] = []
        for frame in try Fixture.clip("endpointer/two_phrases_long_pause.wav").frames {
            pipeline.process(frame, emit: { events.append($0) })
        }
        #expect(events.allSatisfy { if case .state(let snapshot, _) = $0 { snapshot.waitingFor == nil } else { true } })
        pipeline.wakePhraseHeard(atFrame: 10, emit: { events.append($0) })
        #expect(!events.contains { if case .wake = $0 { true } else { false } })
    }
}
