import EarshotAudio
import Foundation

/// The soak's microphone audio: the speech fixtures one after another, each followed by a few
/// seconds of silence (time for the reply), over and over for the soak's length, as one 16 kHz
/// WAV file that is played once into the virtual microphone and replayed afterwards.
enum SoakLoop {
    /// Requests, a conversation with a barge-in, noise, desk sounds: every path of a turn.
    static let fixtures = [
        "speech/one_request_slt.wav",
        "conversation/barge_in.wav",
        "endpointer/utterance_after_silence.wav",
        "speech/two_requests_slt.wav",
        "endpointer/real_utterance_in_white_noise.wav",
        "conversation/desk_sounds.wav",
        "endpointer/noise_bursts.wav",
    ]
    static let pauseAfterEach = 4.0

    /// `minutes` of the looped fixtures (cut at exactly that length).
    static func make(minutes: Double, fixturesDirectory: String) throws -> AudioClip {
        let pause = [Float](repeating: 0, count: Int(pauseAfterEach * Double(AudioFrame.sampleRate)))
        let cycle = try fixtures.flatMap { name in
            try WAVFile.read(fixturesDirectory + "/" + name).samples + pause
        }
        let total = Int(minutes * 60 * Double(AudioFrame.sampleRate))
        var samples: [Float] = []
        samples.reserveCapacity(total)
        while samples.count < total { samples += cycle.prefix(total - samples.count) }
        return AudioClip(samples: samples)
    }

    /// Cuts `clip` into `count` pieces of about equal length, at sample positions that fall
    /// inside 10 ms frames (a prime offset from each even cut), and writes them beside `path`.
    static func writePieces(of clip: AudioClip, count: Int, beside path: String) throws -> [String] {
        let samples = clip.samples
        var cuts = (1..<count).map { samples.count * $0 / count + 37 * $0 }
        cuts = [0] + cuts.map { min($0, samples.count) } + [samples.count]
        var paths: [String] = []
        for piece in 0..<count {
            let piecePath = path.replacingOccurrences(of: ".wav", with: "-piece\(piece + 1).wav")
            try WAVFile.write(AudioClip(samples: Array(samples[cuts[piece]..<cuts[piece + 1]])), to: piecePath)
            paths.append(piecePath)
        }
        return paths
    }
}
