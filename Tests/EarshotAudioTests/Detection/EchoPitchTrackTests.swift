import EarshotAudio
import Foundation
import Testing

/// The played voice's pitch explains the same pitch heard at the echo's delay, and nothing else.
@Suite struct EchoPitchTrackTests {
    /// Syllables of a harmonic tone (five harmonics of `hz`, 4 per second, after 100 ms of
    /// silence), as the speaker might play vowels.
    static func vowel(_ hz: Double, frames: Int) -> [AudioFrame] {
        (0..<frames).map { index in
            var samples = [160 of Float](repeating: 0)
            for i in 0..<160 {
                let t = Double(index * 160 + i) / 16_000 - 0.1
                guard t > 0 else { continue }
                let envelope = pow(sin(Double.pi * 4 * t), 2)
                var tone = 0.0
                for harmonic in 1...5 { tone += 0.08 / Double(harmonic) * sin(2 * Double.pi * hz * Double(harmonic) * t) }
                samples[i] = Float(envelope * tone)
            }
            return AudioFrame(index: index, samples: samples)
        }
    }

    static func heard(_ hz: Float) -> SpeechCues { SpeechCues(periodicity: 0.9, pitchHz: hz, levelDB: -10) }

    /// Whether the pitch `hz`, heard in microphone frame `frame`, is the echo of `played`.
    static func echo(of played: [AudioFrame], silenceAfter: Int = 0) -> (Float, Int, Int?) -> Bool {
        var track = EchoPitchTrack()
        for frame in played { track.played(frame, alongside: frame.index) }
        for index in played.count..<(played.count + silenceAfter) { track.played(AudioFrame.silence(index: index), alongside: index) }
        return { hz, frame, delay in track.matches(heard(hz), frameIndex: frame, delayFrames: delay) }
    }

    @Test func theSamePitchAtTheEchosDelayIsTheEcho() {
        let echo = Self.echo(of: Self.vowel(150, frames: 40))
        #expect(echo(150, 30, 6))
        #expect(echo(155, 30, 6), "within a semitone")
    }

    @Test func anotherPitchIsThePersons() {
        let echo = Self.echo(of: Self.vowel(150, frames: 40))
        #expect(!echo(220, 30, 6))
        #expect(!echo(134, 30, 6), "two semitones below")
    }

    @Test func withoutAnEchoHeardOrWithoutVoicingNothingIsTheEchos() {
        let echo = Self.echo(of: Self.vowel(150, frames: 40))
        #expect(!echo(150, 30, nil))
        var track = EchoPitchTrack()
        for frame in Self.vowel(150, frames: 40) { track.played(frame, alongside: frame.index) }
        let unvoiced = track.matches(SpeechCues(periodicity: 0.2, pitchHz: 150, levelDB: -10), frameIndex: 30, delayFrames: 6)
        #expect(!unvoiced)
    }

    @Test func silencePlayedExplainsNoPitch() {
        let echo = Self.echo(of: Self.vowel(150, frames: 40), silenceAfter: 40)
        #expect(!echo(150, 76, 6))
        #expect(!echo(150, 200, 6), "frames never played are not remembered")
    }
}
