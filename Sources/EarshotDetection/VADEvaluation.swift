public import EarshotAudio

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
    }

    /// A named pool of recordings and its combined score.
    public struct Group: Sendable {
        public var name: String
        public var score: VADScore
    }

    public var results: [RecordingResult]

    /// Runs a fresh detector from `makeDetector` over every recording of `set`.
    /// Fails on the first file that cannot be decoded.
    public static func run<Detector: VoiceActivityDetector>(
        _ makeDetector: () -> Detector, on set: LabelledSpeechSet
    ) throws(AudioFileError) -> VADEvaluation {
        var results: [RecordingResult] = []
        let clock = ContinuousClock()
        for recording in set.recordings {
            let clip = try WAVFile.read(recording.path)
            let frames = Array(clip.frames)
            var detector = makeDetector()
            var decisions = [Bool](repeating: false, count: frames.count)
            let elapsed = clock.measure {
                for frame in frames {
                    if let verdict = detector.process(frame) { decisions[verdict.frameIndex] = verdict.isSpeech }
                }
                if let last = frames.last {
                    for verdict in detector.finish(after: last.index) { decisions[verdict.frameIndex] = verdict.isSpeech }
                }
            }
            var score = VADScore()
            score.add(decisions: decisions, labels: recording.labels, lookaheadFrames: detector.lookaheadFrames)
            results.append(RecordingResult(
                recording: recording, score: score, audioSeconds: clip.duration,
                processingSeconds: Self.seconds(elapsed)
            ))
        }
        return VADEvaluation(results: results)
    }

    public init(results: [RecordingResult]) {
        self.results = results
    }

    /// Pools by SNR condition: `clean` first, then from the highest SNR down.
    public var byCondition: [Group] {
        group(\.condition) { lhs, rhs in
            switch (lhs.snrDB, rhs.snrDB) {
            case (nil, _): true
            case (_, nil): false
            case let (l?, r?): l > r
            }
        }
    }

    /// Pools by noise type (`clean` included), in order of first appearance.
    public var byNoise: [Group] { group(\.noise) { _, _ in false } }

    public var overall: VADScore { results.reduce(VADScore()) { $0 + $1.score } }
    public var audioSeconds: Double { results.reduce(0) { $0 + $1.audioSeconds } }
    public var processingSeconds: Double { results.reduce(0) { $0 + $1.processingSeconds } }
    /// Detector time per second of audio (below 1 is faster than real time).
    public var realTimeFactor: Double { audioSeconds > 0 ? processingSeconds / audioSeconds : 0 }

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
