#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns takes of a wake phrase into templates: each take trimmed to its speech (the detector's
/// span, tightened to the frames within ``trimBelowPeakDB`` of its loudest), checked to be one
/// phrase's worth of speech, and checked to sound like the others.
public enum WakeEnrolment {
    public static let minimumTakes = 3
    public static let shortestPhrase = 0.3
    public static let longestPhrase = 3.0
    /// Frames this far below a take's loudest frame are the silence around the phrase (dB).
    static let trimBelowPeakDB: Float = 35
    /// Takes whose mean distance to the others is above this say something else, or say it in
    /// another way than the rest (the distance of ``SubsequenceAlignment``): the others would
    /// not wake on it.
    public static let agreementLimit: Float = 0.3

    /// The enrolled takes: trimmed samples, in the order given, and how far apart they are.
    public struct Enrolled: Sendable {
        public var takes: [[Float]]
        /// Each take's mean distance to the others.
        public var disagreement: [Float]
        /// The score under which they hear the phrase (``PhraseTemplateMatcher/threshold(disagreement:)``).
        public var threshold: Float { PhraseTemplateMatcher.threshold(disagreement: disagreement) }
    }

    /// Why takes cannot be enrolled, in words a person can act on.
    public struct Refusal: Error, Equatable, CustomStringConvertible, Sendable {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// - Parameter takes: each take's name (its file) and audio.
    public static func enrol(_ takes: [(name: String, clip: AudioClip)]) throws(Refusal) -> Enrolled {
        guard takes.count >= minimumTakes else {
            throw Refusal(description: "\(minimumTakes) takes of the wake phrase are needed, and \(takes.count) "
                + "\(takes.count == 1 ? "was" : "were") given: record the phrase \(minimumTakes) times, a file each")
        }
        var trimmed: [[Float]] = []
        for take in takes {
            let speech = try self.speech(of: take.clip, name: take.name)
            trimmed.append(speech)
        }
        let disagreement = PhraseTemplateMatcher.disagreement(of: PhraseTemplateMatcher.centredFeatures(of: trimmed).features)
        if let worst = disagreement.indices.max(by: { disagreement[$0] < disagreement[$1] }), disagreement[worst] > agreementLimit {
            let others = disagreement.indices.filter { $0 != worst }.map { disagreement[$0] }
            throw Refusal(description: "\(takes[worst].name) does not sound like the other takes (it is \(format(disagreement[worst])) "
                + "from them on average, the others \(others.map(format).joined(separator: " and ")); the most allowed is "
                + "\(format(agreementLimit))): say the same phrase the same way in every take, and record that take again")
        }
        return Enrolled(takes: trimmed, disagreement: disagreement)
    }

    /// The take's speech: the detector's span of it, less the quiet frames at its edges.
    public static func speech(of clip: AudioClip, name: String) throws(Refusal) -> [Float] {
        var detector = SpectralVAD()
        let verdicts = detector.verdicts(for: clip)
        guard let first = verdicts.first(where: \.isSpeech)?.frameIndex, let last = verdicts.last(where: \.isSpeech)?.frameIndex else {
            throw Refusal(description: "\(name) has no speech in it: say the wake phrase clearly, near the microphone")
        }
        let levels = (first...last).map { index -> Float in
            let frame = clip.frame(at: index)
            var energy: Float = 1e-12
            for i in 0..<AudioFrame.sampleCount { energy += frame.samples[i] * frame.samples[i] }
            return 10 * log10(energy / Float(AudioFrame.sampleCount))
        }
        let peak = levels.max() ?? 0
        let start = first + (levels.firstIndex { $0 >= peak - trimBelowPeakDB } ?? 0)
        let end = first + (levels.lastIndex { $0 >= peak - trimBelowPeakDB } ?? levels.count - 1)
        let seconds = Double(end - start + 1) * AudioFrame.duration
        guard seconds >= shortestPhrase else {
            throw Refusal(description: "\(name) has only \(format(seconds)) s of speech, too short for a wake phrase: "
                + "say a phrase of two or three words, at least \(format(shortestPhrase)) s")
        }
        guard seconds <= longestPhrase else {
            throw Refusal(description: "\(name) has \(format(seconds)) s of speech, too long for a wake phrase: "
                + "record only the phrase (at most \(format(longestPhrase)) s), with a moment of quiet before and after")
        }
        let from = start * AudioFrame.sampleCount, to = min((end + 1) * AudioFrame.sampleCount, clip.samples.count)
        return Array(clip.samples[from..<to])
    }

    static func format(_ value: some BinaryFloatingPoint) -> String {
        let hundredths = (Double(value) * 100).rounded()
        return "\(Int(hundredths) / 100).\(String(format2: Int(abs(hundredths)) % 100))"
    }
}

extension String {
    fileprivate init(format2 value: Int) {
        self = value < 10 ? "0\(value)" : "\(value)"
    }
}
