import EarshotAudio
import EarshotConversation
import EarshotTurns
import Foundation
import Testing

@Suite struct ReplayTests {
    static func replay(_ clip: AudioClip, levels: Bool = true, levelHz: Int = 60) -> [UInt8] {
        var replay = Replay(detector: SpectralVAD(), configuration: .init(
            levelMeter: LevelMeter.Configuration(readingsPerSecond: levelHz),
            emitsLevels: levels
        ))
        var output: [UInt8] = []
        replay.run(clip) { output += $0 }
        return output
    }

    static func events(_ clip: AudioClip, configuration: VoicePipeline<SpectralVAD>.Configuration = .init()) -> [PipelineEvent] {
        var pipeline = VoicePipeline(detector: SpectralVAD(), configuration: configuration)
        var events: [PipelineEvent] = []
        for frame in clip.frames { pipeline.process(frame) { events.append($0) } }
        pipeline.finish { events.append($0) }
        return events
    }

    @Test(arguments: ["two_phrases_long_pause.wav", "real_utterance_in_white_noise.wav", "noise_bursts.wav"])
    func sameFileGivesIdenticalBytes(name: String) throws {
        let clip = try Fixture.clip("endpointer/" + name)
        let first = Self.replay(clip)
        let second = Self.replay(clip)
        #expect(!first.isEmpty)
        #expect(first == second)
    }

    @Test func everyLineIsJSONWithEventFirstAndTimeLast() throws {
        let output = Self.replay(try Fixture.clip("endpointer/two_phrases_long_pause.wav"))
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        #expect(lines.count > 100)
        for line in lines {
            #expect(line.hasPrefix(#"{"event":""#))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["t"] is Double || object["t"] is Int)
            #expect(line.range(of: #","t":[0-9]+\.[0-9]{2}\}$"#, options: .regularExpression) != nil, "\(line)")
        }
    }

    @Test func oneUtteranceWalksThroughTheTurnPhases() throws {
        let events = Self.events(try Fixture.clip("endpointer/utterance_after_silence.wav"))
        let phases = events.compactMap { event -> TurnPhase? in
            if case .state(let snapshot, _) = event { snapshot.phase } else { nil }
        }
        #expect(phases == [.idle, .listening, .hearing, .thinking, .listening])
        let starts = events.filter { if case .speechStarted = $0 { true } else { false } }
        let ends = events.filter { if case .speechEnded = $0 { true } else { false } }
        #expect(starts.count == 1)
        #expect(ends.count == 1)
    }

    @Test func speechStartPrecedesHearingAndCarriesItsTurnAndPadding() throws {
        let events = Self.events(try Fixture.clip("endpointer/two_phrases_long_pause.wav"))
        var starts: [(turn: Int, audioStart: Double, time: Double, index: Int)] = []
        for (index, event) in events.enumerated() {
            if case .speechStarted(let turn, let audioStart, let time) = event {
                starts.append((turn, audioStart, time, index))
            }
        }
        #expect(starts.map(\.turn) == [1, 2])
        for start in starts {
            #expect(abs(start.time - start.audioStart - 0.3) < 1e-9)
            guard case .state(let snapshot, let time) = events[start.index + 1] else {
                Issue.record("the speech start is not followed by a state event")
                continue
            }
            #expect(snapshot.phase == .hearing)
            #expect(snapshot.turn == start.turn)
            // Confirmation takes at least the minimum speech, at most the longest onset window
            // (minimum speech with tolerated gaps) plus the detector's look-ahead.
            let endpointing = Endpointer.Configuration()
            let lookahead = SpectralVAD().lookaheadFrames
            let longest = Double(endpointing.historyFrames(lookaheadFrames: lookahead) - endpointing.prefixPaddingFrames) * 0.01
            #expect(time - start.time >= 0.15 - 1e-9)
            #expect(time - start.time <= longest + 1e-9)
        }
    }

    @Test func levelEventsComeAtTheRequestedRateInTimeOrder() throws {
        let clip = try Fixture.clip("endpointer/two_phrases_long_pause.wav")
        for rate in [10, 30, 60] {
            let events = Self.events(clip, configuration: .init(
                levelMeter: LevelMeter.Configuration(readingsPerSecond: rate), emitsLevels: true
            ))
            let times = events.compactMap { event -> Double? in
                if case .level(.mic, let reading) = event { reading.time } else { nil }
            }
            #expect(abs(Double(times.count) - clip.duration * Double(rate)) <= 1.5)
            #expect(times == times.sorted())
        }
    }

    /// With nobody taking levels the meters rest; once someone does, readings come again at
    /// the requested rate, the first at once.
    @Test func levelsRestWhileNobodyWantsThem() throws {
        let clip = try Fixture.clip("endpointer/two_phrases_long_pause.wav")
        var pipeline = VoicePipeline(detector: SpectralVAD(), configuration: .init(
            levelMeter: LevelMeter.Configuration(readingsPerSecond: 20), emitsLevels: true
        ))
        let frames = Array(clip.frames)
        let third = frames.count / 3
        var readings: [Int: [Double]] = [:]
        for (position, frame) in frames.enumerated() {
            let part = position / third
            pipeline.levelsWanted = part != 1
            pipeline.process(frame) { event in
                if case .level(.mic, let reading) = event { readings[part, default: []].append(reading.time) }
            }
        }
        let partSeconds = Double(third) * AudioFrame.duration
        #expect(readings[1] == nil)
        #expect(abs(Double(readings[0]?.count ?? 0) - partSeconds * 20) <= 1.5)
        #expect(abs(Double(readings[2]?.count ?? 0) - partSeconds * 20) <= 2.5)
        let resumed = try #require(readings[2]?.first)
        #expect(resumed <= Double(2 * third + 1) * AudioFrame.duration + 1e-9)
    }

    @Test func withoutLevelsNoLevelEvents() throws {
        let events = Self.events(try Fixture.clip("endpointer/two_phrases_long_pause.wav"))
        #expect(!events.contains { if case .level = $0 { true } else { false } })
    }

    @Test func silenceStaysListening() {
        let events = Self.events(AudioClip(samples: [Float](repeating: 0, count: 16_000 * 3)))
        #expect(events.count == 2)
        #expect(events.last.map { if case .state(let s, _) = $0 { s.phase == .listening } else { false } } == true)
    }

    @Test func aFrontEndsStopWhileListeningIsRejectedAndChangesNothing() throws {
        var pipeline = VoicePipeline(detector: SpectralVAD())
        var events: [PipelineEvent] = []
        pipeline.process(.silence(index: 0)) { events.append($0) }
        let countBefore = events.count
        let action = pipeline.apply({ $0.stop() }) { events.append($0) }
        guard case .rejected = action else {
            Issue.record("stop while listening was not rejected: \(action)")
            return
        }
        #expect(events.count == countBefore)
        #expect(pipeline.machine.snapshot.phase == .listening)
    }

    @Test func dismissFromAFrontEndEndsVoiceMode() {
        var pipeline = VoicePipeline(detector: SpectralVAD())
        var events: [PipelineEvent] = []
        pipeline.process(.silence(index: 0)) { events.append($0) }
        _ = pipeline.apply({ $0.dismiss() }) { events.append($0) }
        guard case .state(let snapshot, let time) = events.last else {
            Issue.record("dismiss emitted no state event")
            return
        }
        #expect(snapshot.phase == .idle)
        #expect(time == 0.01)
    }
}
