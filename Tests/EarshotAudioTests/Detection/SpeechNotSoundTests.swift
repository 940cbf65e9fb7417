import EarshotAudio
import EarshotTestSupport
import Foundation
import Testing

@testable import EarshotAudio

/// Speech, not sound: an onset counts only once a pitch holds; how a turn ended sets its silence.
@Suite struct SpeechNotSoundTests {
    /// `count` frames of confident speech from frame `start` whose cues `cue(k)` gives.
    static func run(from start: Int, count: Int, cue: (Int) -> SpeechCues?) -> [VoiceActivity] {
        (0..<count).map { VoiceActivity(frameIndex: start + $0, probability: 0.9, isSpeech: true, cues: cue($0)) }
    }

    static func silence(from start: Int, count: Int) -> [VoiceActivity] {
        (0..<count).map {
            VoiceActivity(frameIndex: start + $0, probability: 0.1, isSpeech: false, cues: SpeechCues(periodicity: 0, pitchHz: 0, levelDB: -70))
        }
    }

    static func events(_ activities: [VoiceActivity], configuration: Endpointer.Configuration = .init()) -> [Endpointer.Event] {
        var endpointer = Endpointer(configuration: configuration)
        return (activities.compactMap { endpointer.process($0) } + [endpointer.finish()].compactMap { $0 }).filter(\.isBoundary)
    }

    static func voiced(_ hz: Float) -> SpeechCues { SpeechCues(periodicity: 0.9, pitchHz: hz, levelDB: -10) }

    @Test func aLoudUnvoicedBurstNeverStartsAnUtterance() {
        // A cough or a train of key ticks: the detector says speech for 300 ms, no pitch holds.
        let burst = Self.run(from: 50, count: 30) { _ in SpeechCues(periodicity: 0.3, pitchHz: 240, levelDB: -8) }
        #expect(Self.events(Self.silence(from: 0, count: 50) + burst + Self.silence(from: 80, count: 100)) == [])
    }

    @Test func aPitchThatJumpsEveryFewFramesIsNotSpeech() {
        // Knocks: damped tones that look periodic for a frame or three, each at its own pitch.
        let knocks = Self.run(from: 50, count: 30) { k in Self.voiced([120, 310, 180, 520, 95][(k / 3) % 5]) }
        #expect(Self.events(Self.silence(from: 0, count: 50) + knocks + Self.silence(from: 80, count: 100)) == [])
    }

    @Test func aHeldPitchIsSuspectedThenConfirmed() {
        let word = Self.run(from: 50, count: 40) { k in Self.voiced(180 - Float(k)) }
        let events = Self.events(Self.silence(from: 0, count: 50) + word + Self.silence(from: 90, count: 100))
        #expect(events.first == .onsetSuspected(onsetFrame: 50))
        #expect(events.dropFirst().first == .speechStarted(onsetFrame: 50, audioStartFrame: 20))
        #expect(events.count == 3)
    }

    @Test func aShortCommandEndsSoonerThanTheEndSilence() {
        // "next": 45 frames, then silence; medium ends it after 0.6 × 600 ms.
        let word = Self.run(from: 50, count: 45) { k in Self.voiced(190 - Float(k)) }
        let events = Self.events(Self.silence(from: 0, count: 50) + word + Self.silence(from: 95, count: 100))
        #expect(events.last == .speechEnded(onsetFrame: 50, endFrame: 95, reason: .finished))
        var endpointer = Endpointer()
        let frames = Self.silence(from: 0, count: 50) + word + Self.silence(from: 95, count: 100)
        let endAt = frames.first { endpointer.process($0).map { if case .speechEnded = $0 { true } else { false } } ?? false }
        #expect(endAt?.frameIndex == 94 + 36)
    }

    @Test func aCoughInTheSilenceAfterATurnDoesNotCarryItIntoTheNext() {
        // "next", 200 ms of silence, a 150 ms cough (speech to the detector, no pitch), silence.
        let word = Self.run(from: 50, count: 45) { k in Self.voiced(190 - Float(k)) }
        let cough = Self.run(from: 115, count: 15) { _ in SpeechCues(periodicity: 0.3, pitchHz: 240, levelDB: -8) }
        let events = Self.events(
            Self.silence(from: 0, count: 50) + word + Self.silence(from: 95, count: 20) + cough + Self.silence(from: 130, count: 100))
        #expect(events.contains(.speechEnded(onsetFrame: 50, endFrame: 95, reason: .finished)), "\(events)")
    }

    @Test func ticksRingingAtOnePitchInTheSilenceDoNotCarryTheTurnOn() {
        // turns-dev-2's d2_s04 at 7.89 s: three ticks 4 frames apart, each a loud attack that
        // rings at 300 Hz while it decays 30 dB; bridged across the gaps, the pitch spans 7 frames.
        let word = Self.run(from: 50, count: 45) { k in Self.voiced(190 - Float(k)) }
        let ticks = Self.run(from: 115, count: 12) { k in
            let level: Float = [-29, -26, -40, -58][k % 4]
            return k % 4 == 0 ? SpeechCues(periodicity: 0.3, pitchHz: 298, levelDB: level) : SpeechCues(periodicity: 0.9, pitchHz: 300, levelDB: level)
        }
        let events = Self.events(
            Self.silence(from: 0, count: 50) + word + Self.silence(from: 95, count: 20) + ticks + Self.silence(from: 127, count: 100))
        #expect(events.contains(.speechEnded(onsetFrame: 50, endFrame: 95, reason: .finished)), "\(events)")
    }

    @Test func aVoiceInTheSilenceGoesOn() {
        let word = Self.run(from: 50, count: 45) { k in Self.voiced(190 - Float(k)) }
        let more = Self.run(from: 115, count: 40) { k in Self.voiced(170 - Float(k)) }
        let events = Self.events(
            Self.silence(from: 0, count: 50) + word + Self.silence(from: 95, count: 20) + more + Self.silence(from: 155, count: 100))
        guard case .speechEnded(let onset, let end, _) = events.last else { Issue.record("no end: \(events)"); return }
        #expect(onset == 50 && end == 155, "\(events)")
    }

    /// 1.2 s of voiced speech whose last 250 ms follow `ending`, then silence; the end event.
    static func ending(_ tail: (Int) -> Float, eagerness: Endpointer.Eagerness) -> Endpointer.Event? {
        let body = Self.run(from: 50, count: 95) { k in Self.voiced(150 + 8 * sin(Float(k) / 6)) }
        let last = Self.run(from: 145, count: 25) { k in Self.voiced(tail(k)) }
        let frames = Self.silence(from: 0, count: 50) + body + last + Self.silence(from: 170, count: 200)
        var configuration = Endpointer.Configuration()
        configuration.eagerness = eagerness
        return Self.events(frames, configuration: configuration).last
    }

    @Test func aFinalFallEndsSoonerAtHighEagernessThanALevelEnding() {
        let fall = Self.ending({ 150 * pow(2, -Float($0) * 0.25 / 12) }, eagerness: .high)
        #expect(fall == .speechEnded(onsetFrame: 50, endFrame: 170, reason: .finished))
        let level = Self.ending({ _ in 150 }, eagerness: .high)
        #expect(level == .speechEnded(onsetFrame: 50, endFrame: 170, reason: .silence))
        let mediumFall = Self.ending({ 150 * pow(2, -Float($0) * 0.25 / 12) }, eagerness: .medium)
        #expect(mediumFall == .speechEnded(onsetFrame: 50, endFrame: 170, reason: .silence))
    }

    @Test func aHeldLevelUmWaitsLongerThanTheEndSilence() {
        let body = Self.run(from: 50, count: 80) { k in Self.voiced(150 + 8 * sin(Float(k) / 6)) }
        let um = Self.run(from: 130, count: 40) { _ in Self.voiced(140) }
        let frames = Self.silence(from: 0, count: 50) + body + um + Self.silence(from: 170, count: 200)
        #expect(Self.events(frames).last == .speechEnded(onsetFrame: 50, endFrame: 170, reason: .unfinished))
    }

    /// The detector's own cues on a synthetic click train: no pitch holds.
    static func cues(of samples: [Float]) -> [SpeechCues] {
        var detector = SpectralVAD()
        var out: [SpeechCues] = []
        for index in 0..<(samples.count / 160) {
            var frame = [160 of Float](repeating: 0)
            for i in 0..<160 { frame[i] = samples[index * 160 + i] }
            if let verdict = detector.process(AudioFrame(index: index, samples: frame)), let cues = verdict.cues { out.append(cues) }
        }
        return out
    }

    @Test func aClickTrainHoldsNoPitch() {
        var generator = SeededGenerator(seed: 7)
        var clicks = [Float](repeating: 0, count: 16_000)
        for start in stride(from: 800, to: 15_000, by: 720) {
            for i in 0..<48 { clicks[start + i] = Float.random(in: -0.4...0.4, using: &generator) * exp(-Float(i) / 8) }
        }
        var prosody = TurnProsody()
        var longest = 0
        for (index, cue) in Self.cues(of: clicks).enumerated() { longest = max(longest, prosody.track(frame: index, cues: cue)) }
        #expect(longest < Endpointer.Configuration().minimumVoicedFrames, "a click train held a pitch for \(longest) frames")
    }
}
