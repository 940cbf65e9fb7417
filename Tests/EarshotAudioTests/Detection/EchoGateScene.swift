import EarshotAudio
@testable import EarshotAudio
import Foundation

/// Signals for the echo-gate tests, built from the fixture recordings: an assistant's reply (the
/// played reference), its echo in the microphone, and a person talking over it.
struct EchoGateScene {
    /// One stretch of speech cut from a fixture, with its labelled frames (relative to `samples`).
    struct Utterance {
        var samples: [Float]
        var speech: Range<Int>
    }

    /// The assistant: the five utterances of `dev_s07_clean.wav` (espeak-ng and flite voices)
    /// joined by 150 ms pauses, twice over: about 20 s of continuous reply.
    static func assistantReply() throws -> [Float] {
        let utterances = try vadUtterances("dev_s07_clean.wav")
        var reply: [Float] = []
        for _ in 0..<2 {
            for utterance in utterances {
                reply += utterance.samples
                reply += [Float](repeating: 0, count: 15 * AudioFrame.sampleCount)
            }
        }
        return reply
    }

    /// The person: the four utterances of `dev_s05_babble_snr10.wav` (three espeak-ng voices
    /// and a real recording, with their babble), "thank you very much" (espeak-ng en-gb) and
    /// "ten of clubs" (a real recording in white noise).
    static func personUtterances() throws -> [Utterance] {
        let phrases = try EndpointerFixture("two_phrases_long_pause")
        let cards = try EndpointerFixture("real_utterance_in_white_noise")
        return try vadUtterances("dev_s05_babble_snr10.wav")
            + [cut(phrases.clip.samples, phrases.segments[0]), cut(cards.clip.samples, cards.segments[0])]
    }

    /// The labelled utterances of a VAD fixture, each with 50 ms either side.
    static func vadUtterances(_ file: String) throws -> [Utterance] {
        let set = try LabelledSpeechSet(directory: VADTestSupport.fixtureDirectory)
        guard let recording = set.recordings.first(where: { $0.file == file }) else {
            throw LabelledSpeechSet.LoadError(description: "\(file) is not in the fixture manifest")
        }
        let clip = try WAVFile.read(recording.path)
        var segments: [Range<Int>] = []
        var start: Int?
        for (frame, isSpeech) in (recording.labels + [false]).enumerated() {
            if isSpeech, start == nil { start = frame }
            if !isSpeech, let first = start {
                segments.append(first..<frame)
                start = nil
            }
        }
        return segments.map { cut(clip.samples, $0) }
    }

    private static func cut(_ samples: [Float], _ speech: Range<Int>) -> Utterance {
        let margin = 5
        let first = max(speech.lowerBound - margin, 0)
        let end = min((speech.upperBound + margin) * AudioFrame.sampleCount, samples.count)
        return Utterance(
            samples: Array(samples[(first * AudioFrame.sampleCount)..<end]),
            speech: (speech.lowerBound - first)..<(speech.upperBound - first)
        )
    }

    /// `signal` delayed by `milliseconds` and scaled by `gain`, `count` samples long.
    static func echo(of signal: [Float], milliseconds: Int, gain: Float, count: Int) -> [Float] {
        let delay = milliseconds * AudioFrame.sampleRate / 1000
        var echo = [Float](repeating: 0, count: count)
        for i in delay..<count where i - delay < signal.count { echo[i] = signal[i - delay] * gain }
        return echo
    }

    /// `signal` plus a diffuse tail: copies every 5 ms with random signs, decaying by 60 dB over
    /// `rt60` seconds and carrying `tailDecibels` of energy relative to the direct sound, as a
    /// reverberant room adds (sparse taps keep it cheap to compute).
    static func reverberant(_ signal: [Float], rt60: Double, tailDecibels: Double) -> [Float] {
        let step = 80, length = Int(rt60 * Double(AudioFrame.sampleRate))
        let signs = VADTestSupport.noise(count: length / step, amplitude: 1, seed: 99)
        let taps = stride(from: step, to: length, by: step).map { offset in
            (offset, (signs[offset / step] < 0 ? -1 : 1) * Float(exp(-6.9 * Double(offset) / Double(length))))
        }
        let energy = taps.reduce(0) { $0 + Double($1.1 * $1.1) }
        let scale = Float((pow(10, tailDecibels / 10) / energy).squareRoot())
        var output = signal + [Float](repeating: 0, count: length)
        for (offset, weight) in taps {
            let gain = weight * scale
            for i in signal.indices { output[i + offset] += signal[i] * gain }
        }
        return output
    }

    /// White noise at `dBFS` (RMS).
    static func noise(count: Int, dBFS: Double, seed: UInt64) -> [Float] {
        let amplitude = Float(pow(10, dBFS / 20) * 3.0.squareRoot())
        return VADTestSupport.noise(count: count, amplitude: amplitude, seed: seed)
    }

    static func add(_ signal: [Float], to mix: inout [Float], at offset: Int = 0) {
        for i in signal.indices where offset + i < mix.count { mix[offset + i] += signal[i] }
    }

    /// Feeds `played` and `captured` frame by frame, played first, and returns every verdict.
    static func verdicts(played: [Float], captured: [Float], gate: inout EchoGate) -> [EchoGate.Verdict] {
        let playedClip = AudioClip(samples: played), capturedClip = AudioClip(samples: captured)
        let count = max(playedClip.frameCount, capturedClip.frameCount)
        var verdicts: [EchoGate.Verdict] = []
        verdicts.reserveCapacity(count)
        for index in 0..<count {
            gate.played(playedClip.frame(at: index))
            verdicts.append(gate.captured(capturedClip.frame(at: index)))
        }
        return verdicts
    }
}
