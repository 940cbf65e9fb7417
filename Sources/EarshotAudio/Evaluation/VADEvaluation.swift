
/// The scores of a detector on a `LabelledSpeechSet`: per recording, per SNR condition, per noise
/// type, and its speed.
public struct VADEvaluation: Sendable {
    /// One recording's score and timing.
    public struct RecordingResult: Sendable {
        public var recording: LabelledSpeechSet.Recording
        public var score: VADScore
        public var audioSeconds: Double
        /// Wall-clock time spent inside the detector (decoding and scoring excluded).
        public var processingSeconds: Double
        /// CPU time of the same, when the caller supplied a CPU clock.
        public var processingCPUSeconds: Double?
    }

    /// A named pool of recordings and its combined score.
    public struct Group: Sendable {
        public var name: String
        public var score: VADScore
    }

    public var results: [RecordingResult]

    /// Runs a fresh detector from `makeDetector` over every recording of `set`, timing it with the
    /// wall clock and, if given, `cpuClock` (seconds of CPU time of the calling thread).
    /// Fails on the first file that cannot be decoded.
    public static func run<Detector: VoiceActivityDetector>(
        _ makeDetector: () -> Detector, on set: LabelledSpeechSet, cpuClock: (() -> Double)? = nil
    ) throws(AudioFileError) -> VADEvaluation {
        var results: [RecordingResult] = []
        let clock = ContinuousClock()
        for recording in set.recordings {
            let clip = try WAVFile.read(recording.path)
            let frames = Array(clip.frames)
            var detector = makeDetector()
            var decisions = [Bool](repeating: false, count: frames.count)
            let cpuStart = cpuClock?()
            let elapsed = clock.measure {
                for frame in frames {
                    if let verdict = detector.process(frame) { decisions[verdict.frameIndex] = verdict.isSpeech }
                }
                if let last = frames.last {
                    for verdict in detector.finish(after: last.index) { decisions[verdict.frameIndex] = verdict.isSpeech }
                }
            }
            let cpuSeconds = cpuStart.flatMap { start in cpuClock.map { $0() - start } }
            var score = VADScore()
            score.add(decisions: decisions, labels: recording.labels, lookaheadFrames: detector.lookaheadFrames)
            results.append(RecordingResult(
                recording: recording, score: score, audioSeconds: clip.duration,
                processingSeconds: Self.seconds(elapsed), processingCPUSeconds: cpuSeconds
            ))
        }
        return VADEvaluation(results: results)
    }

    public init(results: [RecordingResult]) {
        self.results = results
    }

    /// Pools by SNR condition: `clean` first, then other recordings without an SNR, then from
    /// the highest SNR down.
    public var byCondition: [Group] {
        func rank(_ recording: LabelledSpeechSet.Recording) -> (Int, Int) {
            if let snr = recording.snrDB { return (2, -snr) }
            return (recording.noise == "clean" ? 0 : 1, 0)
        }
        return group(\.condition) { rank($0) < rank($1) }
    }

    /// Pools by noise type: `clean` first, then the others in order of first appearance.
    public var byNoise: [Group] { group(\.noise) { lhs, rhs in lhs.noise == "clean" && rhs.noise != "clean" } }

    public var overall: VADScore { results.reduce(VADScore()) { $0 + $1.score } }
    public var audioSeconds: Double { results.reduce(0) { $0 + $1.audioSeconds } }
    public var processingSeconds: Double { results.reduce(0) { $0 + $1.processingSeconds } }
    /// CPU time of the detector, when every recording was timed with a CPU clock.
    public var processingCPUSeconds: Double? {
        results.reduce(Optional(0.0)) { total, result in total.flatMap { t in result.processingCPUSeconds.map { t + $0 } } }
    }
    /// Detector wall time per second of audio (below 1 is faster than real time).
    public var realTimeFactor: Double { audioSeconds > 0 ? processingSeconds / audioSeconds : 0 }
    /// Detector CPU time per second of audio, when measured.
    public var cpuRealTimeFactor: Double? { processingCPUSeconds.map { audioSeconds > 0 ? $0 / audioSeconds : 0 } }

    private func group(
        _ key: (LabelledSpeechSet.Recording) -> String,
        ordered before: (LabelledSpeechSet.Recording, LabelledSpeechSet.Recording) -> Bool
    ) -> [Group] {
        var order: [(name: String, example: LabelledSpeechSet.Recording)] = []
        var scores: [String: VADScore] = [:]
        for result in results {
            let name = key(result.recording)
            if scores[name] == nil { order.append((name, result.recording)) }
            scores[name, default: VADScore()] = scores[name, default: VADScore()] + result.score
        }
        let sorted = order.enumerated().sorted { a, b in
            before(a.element.example, b.element.example) || (!before(b.element.example, a.element.example) && a.offset < b.offset)
        }
        return sorted.map { Group(name: $0.element.name, score: scores[$0.element.name] ?? VADScore()) }
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}

/// Frame-level and segment-level agreement between speech decisions and labels, pooled over any
/// number of recordings.
public struct VADScore: Sendable, Equatable, Codable {
    public var truePositives = 0
    public var falsePositives = 0
    public var falseNegatives = 0
    public var trueNegatives = 0
    /// Labelled speech segments (runs of speech frames) seen, and those never detected.
    public var segments = 0
    public var missedSegments = 0
    /// Per detected segment, in ms: from the labelled onset to the moment the verdict that first
    /// calls a frame of the segment speech is available (its frame's end plus the look-ahead).
    public var onsetLatenciesMs: [Double] = []

    public init() {}

    public var precision: Double { ratio(truePositives, truePositives + falsePositives) }
    public var recall: Double { ratio(truePositives, truePositives + falseNegatives) }
    public var f1: Double { ratio(2 * truePositives, 2 * truePositives + falsePositives + falseNegatives) }
    /// Fraction of the non-speech frames called speech.
    public var falseAlarmRate: Double { ratio(falsePositives, falsePositives + trueNegatives) }
    public var frames: Int { truePositives + falsePositives + falseNegatives + trueNegatives }

    public var medianOnsetLatencyMs: Double? {
        guard !onsetLatenciesMs.isEmpty else { return nil }
        let sorted = onsetLatenciesMs.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Scores one recording: `decisions[i]` is the verdict for frame i (extra frames on either
    /// side are ignored), from a detector that looks `lookaheadFrames` ahead.
    public mutating func add(decisions: [Bool], labels: [Bool], lookaheadFrames: Int) {
        let count = min(decisions.count, labels.count)
        for i in 0..<count {
            switch (decisions[i], labels[i]) {
            case (true, true): truePositives += 1
            case (true, false): falsePositives += 1
            case (false, true): falseNegatives += 1
            case (false, false): trueNegatives += 1
            }
        }
        var start = 0
        while start < count {
            guard labels[start] else { start += 1; continue }
            var end = start
            while end < count && labels[end] { end += 1 }
            segments += 1
            if let first = (start..<end).first(where: { decisions[$0] }) {
                onsetLatenciesMs.append(Double(first + lookaheadFrames + 1 - start) * 10)
            } else {
                missedSegments += 1
            }
            start = end
        }
    }

    public static func + (lhs: VADScore, rhs: VADScore) -> VADScore {
        var sum = lhs
        sum.truePositives += rhs.truePositives
        sum.falsePositives += rhs.falsePositives
        sum.falseNegatives += rhs.falseNegatives
        sum.trueNegatives += rhs.trueNegatives
        sum.segments += rhs.segments
        sum.missedSegments += rhs.missedSegments
        sum.onsetLatenciesMs += rhs.onsetLatenciesMs
        return sum
    }

    private func ratio(_ numerator: Int, _ denominator: Int) -> Double {
        denominator == 0 ? 0 : Double(numerator) / Double(denominator)
    }
}
