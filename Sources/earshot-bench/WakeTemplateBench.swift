import EarshotAudio
import EarshotConversation
import EarshotSpeech
import Foundation

/// `earshot-bench wake --templates [--threshold S] [--tune] [FIXTURES]`: the wake phrase matched
/// against takes each voice enrolled (``TemplateSpotter``), as the daemon with `[wake] templates`
/// and `earshot replay --wake-templates` decide it. Each voice enrols three takes made apart from
/// its test takes (other speeds and pitches), then is reported on its twelve test takes
/// (``WakeTakes``) and on the same speech without the phrase as the keyphrase method.
/// `--tune` sweeps the background weight and the score threshold on the tuning voices instead.
enum WakeTemplateBench {
    /// The enrolment takes: speed and pitch, none of them a test take's.
    static let enrolment: [(speed: Double, pitch: Double)] = [(1.08, 0.96), (0.95, 1.04), (1.02, 1.0)]

    static func run(threshold: Float?, tune: Bool, fixtures: String) throws {
        if tune {
            try sweep(fixtures: fixtures)
            return
        }
        let material = try WakeBench.falseWakeMaterial(fixtures: fixtures)
        let clips = material.flatMap(\.1)
        let seconds = clips.reduce(0) { $0 + $1.duration }
        let thresholdSaid = threshold.map { "score threshold \($0)" } ?? "score threshold \(PhraseTemplateMatcher.spreadFactor) × the takes' spread"
        print("Wake phrase \"\(WakeBench.phrase)\" by enrolled templates, \(thresholdSaid), background weight \(PhraseTemplateMatcher.defaultBackgroundWeight) "
            + "(tuned on \(WakeTakes.tuning.map(\.name).joined(separator: ", "))); enrolled from speeds × pitches "
            + enrolment.map { "\($0.speed)×\($0.pitch)" }.joined(separator: ", ") + "; false wakes over "
            + String(format: "%.1f", seconds / 60) + " min (" + material.map(\.0).joined(separator: "; ") + ")\n")
        print("| voice | threshold | woken | phrase end → wake median / p90 ms | missed | false wakes | per hour |")
        print("|---|---|---|---|---|---|---|")
        for speaker in WakeTakes.tuning + WakeTakes.reported {
            let spotter = try TemplateSpotter(phrase: WakeBench.phrase, takes: enrolled(by: speaker), threshold: threshold)
            let listening = WakeListening(spotter: spotter)
            let outcome = try WakeBench.detection(of: speaker, listening: listening)
            let byPart = material.map { part in part.1.reduce(0) { $0 + WakeBench.wakeTimes(in: $1, listening: listening).count } }
            let falseWakes = byPart.reduce(0, +)
            let tuning = WakeTakes.tuning.contains { $0.name == speaker.name } ? " (tuning)" : ""
            print("| \(speaker.name)\(tuning) | \(format(spotter.threshold)) | \(outcome.woken)/\(outcome.takes) | \(WakeBench.percentiles(outcome.latencies)) "
                + "| \(outcome.missed.joined(separator: "; ")) | \(falseWakes) (\(byPart.map(String.init).joined(separator: " + "))) | \(String(format: "%.2f", Double(falseWakes) * 3600 / seconds)) |")
        }
    }

    /// `speaker`'s three enrolment takes, trimmed as `earshot wake enroll` trims them.
    static func enrolled(by speaker: WakeTakes.Speaker) throws -> [[Float]] {
        let takes = try enrolment.map { AudioClip(samples: WakeTakes.silence(0.5) + (try WakeTakes.synthesize(WakeBench.phrase, by: speaker, speed: $0.speed, pitch: $0.pitch)) + WakeTakes.silence(0.5)) }
        return try WakeEnrolment.enrol(takes.enumerated().map { (name: "take \($0.offset + 1)", clip: $0.element) }).takes
    }

    /// The weights of the background `--tune` tries.
    static let backgroundWeights: [Float] = [0.6, 0.7, 0.8, 0.9, 1.0]

    /// Per background weight, on the tuning voices: the takes' spread (their mean distance to
    /// each other), the highest score a test take reached at its lowest and the lowest score of
    /// any stretch of speech without the phrase (the voice's own sentences among it, the hardest),
    /// both over the spread: the factors of the spread that part them all. The weight (below 1)
    /// whose range is widest wins, and the factor goes midway in it (the geometric mean).
    static func sweep(fixtures: String) throws {
        let material = try WakeBench.falseWakeMaterial(fixtures: fixtures)
        let clips = material.flatMap(\.1)
        let seconds = clips.reduce(0) { $0 + $1.duration }
        var own: [String: AudioClip] = [:]
        for speaker in WakeTakes.tuning {
            var samples: [Float] = []
            for sentence in try WakeBench.sentences(fixtures: fixtures) {
                samples += WakeTakes.trimmed(try WakeTakes.synthesize(sentence, by: speaker, speed: 1)) + WakeTakes.silence(0.8)
            }
            own[speaker.name] = AudioClip(samples: samples)
        }
        let ownSeconds = own.values.reduce(0) { $0 + $1.duration }
        print("Tuning voices: \(WakeTakes.tuning.map(\.name).joined(separator: ", ")); their own sentences \(String(format: "%.1f", ownSeconds / 60)) min, "
            + "others' speech \(String(format: "%.1f", seconds / 60)) min each. Per voice: spread, takes' highest score / spread, "
            + "lowest other speech (own sentences) / spread\n")
        print("| background weight | per voice | factors that part all | factor midway |")
        print("|---|---|---|---|")
        for weight in backgroundWeights {
            var lowest: Float = 0, highest: Float = .infinity
            var voices: [String] = []
            for speaker in WakeTakes.tuning {
                let takes = try enrolled(by: speaker)
                let disagreement = PhraseTemplateMatcher.disagreement(of: PhraseTemplateMatcher.centredFeatures(of: takes).features)
                let spread = disagreement.reduce(0, +) / Float(disagreement.count)
                let spotter = TemplateSpotter(phrase: WakeBench.phrase, takes: takes, threshold: -1, backgroundWeight: weight)
                var takeHighest: Float = 0
                for take in try WakeTakes.takes(of: WakeBench.phrase, by: speaker) {
                    takeHighest = max(takeHighest, closest(in: AudioClip(samples: take.samples), spotter: spotter).min() ?? .infinity)
                }
                let ownLowest = closest(in: own[speaker.name]!, spotter: spotter).min() ?? .infinity
                var otherLowest = Float.infinity
                for clip in clips { otherLowest = min(otherLowest, closest(in: clip, spotter: spotter).min() ?? .infinity) }
                lowest = max(lowest, takeHighest / spread)
                highest = min(highest, min(ownLowest, otherLowest) / spread)
                voices.append("\(format(spread)): \(format(takeHighest / spread)), \(format(otherLowest / spread)) (\(format(ownLowest / spread)))")
            }
            let range = highest > lowest ? "\(format(lowest))–\(format(highest)) (×\(String(format: "%.2f", highest / lowest)))" : "none"
            print("| \(weight) | \(voices.joined(separator: "; ")) | \(range) | \(highest > lowest ? format((lowest * highest).squareRoot()) : "–") |")
        }
    }

    static func format(_ value: Float) -> String {
        String(format: "%.3f", value)
    }

    /// The closest distance of each stretch of speech in `clip`, the pipeline waiting throughout.
    static func closest(in clip: AudioClip, spotter: TemplateSpotter) -> [Float] {
        var pipeline = VoicePipeline(detector: SpectralVAD(), configuration: .init(transcribes: false, wake: .init(phrase: WakeBench.phrase)))
        let listening = WakeListening(spotter: spotter)
        var closest: [Float] = []
        var open = false
        let perform = { (work: SpeechWork) in
            if case .beginWakeAudio = work {
                if open { closest.append(spotter.closest) }
                open = true
            }
            _ = listening.perform(work)
            if case .endWakeAudio = work, open {
                closest.append(spotter.closest)
                open = false
            }
        }
        for frame in clip.frames { pipeline.process(frame, emit: { _ in }, work: perform) }
        pipeline.finish(emit: { _ in }, work: perform)
        if open { closest.append(spotter.closest) }
        listening.end()
        return closest
    }
}
