import Dispatch
import EarshotAudio
import EarshotBase
import EarshotEngines
import EarshotSpeech
import EarshotHarness
import Foundation

/// The wake benchmark's material, made here with the embedded engines: the phrase said by flite
/// and espeak-ng voices at three speeds, alone and followed by a request, clean and in noise.
enum WakeTakes {
    /// A voice that says the takes: one of flite's, or an espeak-ng voice.
    struct Speaker: Sendable {
        var name: String
        var engine: Engine
        enum Engine: Sendable {
            case flite(String)
            case espeak(String)
        }
    }

    /// One take: the audio at 16 kHz, and where the phrase ends in it (seconds).
    struct Take {
        var label: String
        var samples: [Float]
        var phraseStart: Double
        var phraseEnd: Double
    }

    /// Voices the threshold is tuned on; never those reported.
    static let tuning = [
        Speaker(name: "flite kal", engine: .flite("kal")), Speaker(name: "flite awb", engine: .flite("awb")),
        Speaker(name: "espeak-ng en-us+m3", engine: .espeak("en-us+m3")),
        Speaker(name: "espeak-ng en-gb-scotland", engine: .espeak("en-gb-scotland")),
    ]
    /// Voices reported on.
    static let reported = [
        Speaker(name: "flite slt", engine: .flite("slt")), Speaker(name: "flite rms", engine: .flite("rms")),
        Speaker(name: "flite kal16", engine: .flite("kal16")),
        Speaker(name: "espeak-ng en-us", engine: .espeak("en-us")), Speaker(name: "espeak-ng en-us+f2", engine: .espeak("en-us+f2")),
        Speaker(name: "espeak-ng en-gb-x-rp+m3", engine: .espeak("en-gb-x-rp+m3")),
    ]
    static let requests = ["what time is it", "turn on the kitchen lights", "play some music"]
    /// Slower, as is, faster.
    static let speeds = [1.15, 1.0, 0.88]
    static let leadingSeconds = 1.0
    static let trailingSeconds = 1.5
    static let gapSeconds = 0.25
    /// The noise under the noisy takes, below the phrase's level.
    static let noiseSNR = 15.0

    /// The noise draws of the tuning voices' noisy takes: the reported takes' draw and five more.
    /// A take's score against the bar swings by many powers of ten from one draw of the same
    /// noise to another, so one draw says little about a setting.
    static let tuningNoiseSeeds: [UInt64] = [7, 1, 2, 3, 4, 5]

    /// Twelve takes of `phrase` by `speaker`: each speed, alone and with a request, clean and in
    /// noise (drawn from `seed`), the clean ones first (the spotter adapts to a room as it hears
    /// speech in it, as in the daemon, where the noise of a room lasts).
    static func takes(of phrase: String, by speaker: Speaker, seed: UInt64 = 7) throws -> [Take] {
        var takes: [Take] = []
        var noisyTakes: [Take] = []
        var generator = SeededGenerator(seed: seed)
        for (index, speed) in speeds.enumerated() {
            let said = trimmed(try synthesize(phrase, by: speaker, speed: speed))
            let request = trimmed(try synthesize(requests[index % requests.count], by: speaker, speed: speed))
            for withRequest in [false, true] {
                var samples = silence(leadingSeconds) + said
                let phraseEnd = Double(samples.count) / Double(AudioFrame.sampleRate)
                if withRequest { samples += silence(gapSeconds) + request }
                samples += silence(trailingSeconds)
                let base = "\(speaker.name) ×\(speed)\(withRequest ? " +request" : "")"
                takes.append(Take(label: base + " clean", samples: samples, phraseStart: leadingSeconds, phraseEnd: phraseEnd))
                let noisy = addNoise(to: samples, reference: said, snr: noiseSNR, generator: &generator)
                noisyTakes.append(Take(label: base + " noise", samples: noisy, phraseStart: leadingSeconds, phraseEnd: phraseEnd))
            }
        }
        return takes + noisyTakes
    }

    /// A tuning voice's takes: the twelve, then the noisy ones again in each further draw of
    /// ``tuningNoiseSeeds`` (36 in all).
    static func tuningTakes(of phrase: String, by speaker: Speaker) throws -> [Take] {
        var all = try takes(of: phrase, by: speaker, seed: tuningNoiseSeeds[0])
        for seed in tuningNoiseSeeds.dropFirst() {
            all += try takes(of: phrase, by: speaker, seed: seed).filter { $0.label.hasSuffix(" noise") }.map {
                Take(label: $0.label + " draw \(seed)", samples: $0.samples, phraseStart: $0.phraseStart, phraseEnd: $0.phraseEnd)
            }
        }
        return all
    }

    /// `text` said by `speaker` at `speed` (duration stretch: above 1 is slower) and `pitch`
    /// times the voice's usual pitch, at 16 kHz.
    static func synthesize(_ text: String, by speaker: Speaker, speed: Double, pitch: Double = 1) throws -> [Float] {
        let stream: AsyncThrowingStream<SpeechChunk, any Error>
        switch speaker.engine {
        case .flite(let voice):
            stream = FliteSynthesizer().synthesize(text, settings: Voice.Flite(voice: voice, durationStretch: speed, pitchHz: 100 * pitch))
        case .espeak(let voice):
            stream = EspeakSynthesizer().synthesize(text, settings: Voice.Espeak(voice: voice, rate: Int(175 / speed), pitch: Int((50 * pitch).rounded())))
        }
        let result = Locked<Result<(rate: Int, samples: [Int16]), any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            var rate = AudioFrame.sampleRate
            var samples: [Int16] = []
            do {
                for try await chunk in stream {
                    rate = chunk.sampleRate
                    samples += chunk.samples
                }
                result.withLock { $0 = .success((rate, samples)) }
            } catch {
                result.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        let (rate, samples) = try result.withLock { $0! }.get()
        let floats = samples.map { Float($0) / 32768 }
        return rate == AudioFrame.sampleRate ? floats : Resampler.resample(floats, from: rate, to: AudioFrame.sampleRate)
    }

    /// The samples from the first to the last above −40 dBFS: the words without the engine's own silence.
    static func trimmed(_ samples: [Float]) -> [Float] {
        let loud: Float = 0.01
        guard let first = samples.firstIndex(where: { abs($0) > loud }), let last = samples.lastIndex(where: { abs($0) > loud }) else {
            return samples
        }
        return Array(samples[first...last])
    }

    static func silence(_ seconds: Double) -> [Float] {
        [Float](repeating: 0, count: Int(seconds * Double(AudioFrame.sampleRate)))
    }

    /// `samples` with white noise `snr` dB below the level of `reference`.
    static func addNoise(to samples: [Float], reference: [Float], snr: Double, generator: inout SeededGenerator) -> [Float] {
        let power = reference.reduce(0.0) { $0 + Double($1 * $1) } / Double(max(reference.count, 1))
        let noiseRMS = Float((power / pow(10, snr / 10)).squareRoot())
        // Uniform noise in ±a has an RMS of a/√3.
        let amplitude = noiseRMS * 3.0.squareRoot().float
        return samples.map { $0 + Float.random(in: -amplitude...amplitude, using: &generator) }
    }
}

extension Double {
    fileprivate var float: Float { Float(self) }
}
