import EarshotAudio
import EarshotConversation
import EarshotEngines
import EarshotSpeech
import Foundation

/// `earshot-bench wake [--threshold X] [--tune] [FIXTURES]`: the wake phrase as the daemon and
/// `earshot replay --wake` decide it, on takes made here (``WakeTakes``): the share of takes
/// woken, by voice; false wakes per hour on the dev sets' speech without the phrase (their
/// desk sounds among it), on sentences said by the reported voices, and on the desk-sound
/// fixture; and the time from the phrase's end to the `wake` decision, in audio time.
/// `--tune` sweeps the threshold on the tuning voices instead.
enum WakeBench {
    static let phrase = "hey computer"
    /// A wake counts for a take when it comes within this long after the phrase's end; one
    /// decided at the end of the stretch of speech (the spotter's closing pass) within
    /// `stretchEndAcceptanceSeconds`.
    static let acceptanceSeconds = 1.0
    static let stretchEndAcceptanceSeconds = 3.0

    struct Outcome {
        var woken = 0
        var takes = 0
        /// Phrase end → wake, for wakes decided as the audio came.
        var latencies: [Double] = []
        /// Phrase end → wake, for wakes decided at the end of the stretch.
        var stretchEndLatencies: [Double] = []
        var missed: [String] = []
    }

    /// A `wake` event's audio time, and whether the spotter decided it at the stretch's end.
    struct Wake {
        var time: Double
        var atStretchEnd: Bool
    }

    static func run(threshold: Double, tune: Bool, onTuningVoices: Bool = false, fixtures: String) throws {
        let pronounced = try PronouncedWakePhrase(try WakePhrase(phrase))
        if tune {
            try sweep(pronounced, fixtures: fixtures)
            return
        }
        let spotter = WakeListening(spotter: try KeyphraseSpotter(pronounced, threshold: threshold))
        print("Wake phrase \"\(phrase)\", kws_threshold \(threshold) (tuned on \(WakeTakes.tuning.map(\.name).joined(separator: ", ")))\n")
        print("| voice | woken | of them at stretch end | phrase end → wake median / p90 ms | at stretch end: median / p90 ms | missed |")
        print("|---|---|---|---|---|---|")
        var flite = Outcome(), espeak = Outcome()
        for speaker in onTuningVoices ? WakeTakes.tuning : WakeTakes.reported {
            let outcome = try detection(of: speaker, listening: spotter, tuning: onTuningVoices)
            if case .flite = speaker.engine { flite.add(outcome) } else { espeak.add(outcome) }
            print("| \(speaker.name) | \(outcome.woken)/\(outcome.takes) | \(outcome.stretchEndLatencies.count) | \(percentiles(outcome.latencies)) "
                + "| \(percentiles(outcome.stretchEndLatencies)) | \(outcome.missed.joined(separator: "; ")) |")
        }
        for (name, all) in [("flite", flite), ("espeak-ng", espeak)] {
            print("| **\(name), all** | \(all.woken)/\(all.takes) (\(percent(all))) | \(all.stretchEndLatencies.count) | \(percentiles(all.latencies)) "
                + "| \(percentiles(all.stretchEndLatencies)) | |")
        }
        guard !onTuningVoices else { return }
        print("")
        print("| speech without the phrase | audio | false wakes | of them at stretch end | per hour |")
        print("|---|---|---|---|---|")
        for (label, clips) in try falseWakeMaterial(fixtures: fixtures) {
            let seconds = clips.reduce(0) { $0 + $1.duration }
            let wakes = clips.flatMap { wakeTimes(in: $0, listening: spotter) }
            print("| \(label) | \(String(format: "%.1f", seconds / 60)) min | \(wakes.count) | \(wakes.filter(\.atStretchEnd).count) "
                + "| \(String(format: "%.2f", Double(wakes.count) * 3600 / seconds)) |")
        }
    }

    /// Every take of `speaker` (a tuning voice's with its further noise draws), replayed with the wake phrase.
    static func detection(of speaker: WakeTakes.Speaker, listening: WakeListening, tuning: Bool = false) throws -> Outcome {
        var outcome = Outcome()
        for take in try tuning ? WakeTakes.tuningTakes(of: phrase, by: speaker) : WakeTakes.takes(of: phrase, by: speaker) {
            outcome.takes += 1
            let wakes = wakeTimes(in: AudioClip(samples: take.samples), listening: listening)
            if let wake = wakes.first(where: { take.accepts($0) }) {
                outcome.woken += 1
                if wake.atStretchEnd {
                    outcome.stretchEndLatencies.append(wake.time - take.phraseEnd)
                } else {
                    outcome.latencies.append(wake.time - take.phraseEnd)
                }
            } else {
                outcome.missed.append(take.label.replacingOccurrences(of: speaker.name + " ", with: ""))
            }
        }
        return outcome
    }

    /// The audio times of the `wake` events replaying `clip` gives, as `earshot replay --wake`
    /// decides them; the conversation ends 0.3 s after the last speech, so each wake is counted.
    static func wakeTimes(in clip: AudioClip, listening: WakeListening) -> [Wake] {
        var pipeline = VoicePipeline(detector: SpectralVAD(), configuration: .init(
            transcribes: false, wake: .init(phrase: phrase, idleAfter: 0.3)
        ))
        var wakes: [Wake] = []
        let emit = { (event: PipelineEvent) in
            if case .wake(_, let time) = event { wakes.append(Wake(time: time, atStretchEnd: listening.heardAtStretchEnd)) }
        }
        for frame in clip.frames {
            var heard: Int?
            pipeline.process(frame, emit: emit) { work in
                if let index = listening.perform(work) { heard = index }
            }
            if let heard { pipeline.wakePhraseHeard(atFrame: heard, emit: emit) }
        }
        pipeline.finish(emit: emit) { work in _ = listening.perform(work) }
        listening.end()
        return wakes
    }

    /// Speech without the phrase: the dev sets' recordings (with their desk sounds), the
    /// reported voices saying the turn sets' sentences, and the desk-sound fixture.
    static func falseWakeMaterial(fixtures: String) throws -> [(String, [AudioClip])] {
        let files = (try? FileManager.default.subpathsOfDirectory(atPath: fixtures)) ?? []
        let devSet = try files.filter { $0.hasSuffix(".wav") }.sorted().map { try WAVFile.read(fixtures + "/" + $0) }
        let sentences = try sentences(fixtures: fixtures)
        var spoken: [AudioClip] = []
        for speaker in WakeTakes.reported {
            var samples: [Float] = []
            for sentence in sentences { samples += WakeTakes.trimmed(try WakeTakes.synthesize(sentence, by: speaker, speed: 1)) + WakeTakes.silence(0.8) }
            spoken.append(AudioClip(samples: samples))
        }
        let desk = try WAVFile.read("Tests/Fixtures/conversation/desk_sounds.wav")
        return [
            ("dev sets (\(fixtures), \(devSet.count) recordings, desk sounds among them)", devSet),
            ("\(sentences.count) turn-set sentences × \(WakeTakes.reported.count) reported voices", spoken),
            ("desk sounds (Tests/Fixtures/conversation/desk_sounds.wav)", [desk]),
        ]
    }

    /// The turn sets' sentences without the phrase's words, each once.
    static func sentences(fixtures: String) throws -> [String] {
        let files = (try? FileManager.default.subpathsOfDirectory(atPath: fixtures)) ?? []
        var sentences: [String] = []
        for file in files where file.hasSuffix("turns.csv") {
            let text = try String(contentsOfFile: fixtures + "/" + file, encoding: .utf8)
            for line in text.split(whereSeparator: \.isNewline).dropFirst() {
                let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                guard fields.count > 6 else { continue }
                let said = fields[6].replacingOccurrences(of: "|", with: " ")
                if !said.contains("computer"), !sentences.contains(said) { sentences.append(said) }
            }
        }
        return sentences
    }

    /// Detection on the tuning voices and false wakes on the dev sets, per threshold. One pass of
    /// the pipeline feeds a spotter per threshold; none of them wakes it, so each stretch of
    /// speech reaches them all (a wake would have skipped the rest of the conversation: this
    /// counts false wakes a little high).
    static func sweep(_ pronounced: PronouncedWakePhrase, fixtures: String) throws {
        // Every 10^2.5 from 1e-20 on: the phrase in noise and the dev sets' nearest miss are a few apart.
        let exponents = Array(stride(from: -20.0, through: -50.0, by: -2.5))
        let spotters = try exponents.map { WakeListening(spotter: try KeyphraseSpotter(pronounced, threshold: pow(10, $0))) }
        var woken = [Int](repeating: 0, count: spotters.count)
        var takes = 0
        for speaker in WakeTakes.tuning {
            for take in try WakeTakes.tuningTakes(of: phrase, by: speaker) {
                takes += 1
                for (index, heard) in heardTimes(in: AudioClip(samples: take.samples), by: spotters).enumerated()
                where heard.contains(where: { take.accepts($0) }) {
                    woken[index] += 1
                }
            }
        }
        let devSet = try falseWakeMaterial(fixtures: fixtures)[0].1
        let devSeconds = devSet.reduce(0) { $0 + $1.duration }
        var falseWakes = [Int](repeating: 0, count: spotters.count)
        for clip in devSet {
            for (index, heard) in heardTimes(in: clip, by: spotters).enumerated() { falseWakes[index] += heard.count }
        }
        print("Tuning voices: \(WakeTakes.tuning.map(\.name).joined(separator: ", ")); dev sets \(String(format: "%.1f", devSeconds / 60)) min\n")
        print("| kws_threshold | tuning takes woken | dev-set false wakes per hour |")
        print("|---|---|---|")
        for (index, exponent) in exponents.enumerated() {
            let outcome = Outcome(woken: woken[index], takes: takes)
            print("| \(String(format: "%.0e", pow(10, exponent))) | \(woken[index])/\(takes) (\(percent(outcome))) | \(String(format: "%.2f", Double(falseWakes[index]) * 3600 / devSeconds)) |")
        }
    }

    /// When each spotter heard the phrase in `clip`, the pipeline waiting throughout.
    static func heardTimes(in clip: AudioClip, by spotters: [WakeListening]) -> [[Wake]] {
        var pipeline = VoicePipeline(detector: SpectralVAD(), configuration: .init(transcribes: false, wake: .init(phrase: phrase)))
        var heard = [[Wake]](repeating: [], count: spotters.count)
        let perform = { (work: SpeechWork) in
            for (index, spotter) in spotters.enumerated() {
                if let frame = spotter.perform(work) {
                    heard[index].append(Wake(time: Double(frame + 1) * AudioFrame.duration, atStretchEnd: spotter.heardAtStretchEnd))
                }
            }
        }
        for frame in clip.frames { pipeline.process(frame, emit: { _ in }, work: perform) }
        pipeline.finish(emit: { _ in }, work: perform)
        for spotter in spotters { spotter.end() }
        return heard
    }

    /// `Tests/Fixtures/speech/wake_request_slt.wav`: 1 s of silence, "hey computer" (flite slt),
    /// 0.25 s, "turn on the kitchen lights", 1.5 s of silence.
    static func writeFixture(to path: String) throws {
        let slt = WakeTakes.Speaker(name: "flite slt", engine: .flite("slt"))
        let take = try WakeTakes.takes(of: phrase, by: slt).first { $0.label == "flite slt ×1.0 +request clean" }!
        try WAVFile.write(AudioClip(samples: take.samples), to: path)
        print("\(path): phrase from \(take.phraseStart) s to \(String(format: "%.2f", take.phraseEnd)) s")
    }

    static func percent(_ outcome: Outcome) -> String {
        String(format: "%.0f %%", 100 * Double(outcome.woken) / Double(max(outcome.takes, 1)))
    }

    static func percentiles(_ values: [Double]) -> String {
        guard !values.isEmpty else { return "–" }
        let sorted = values.sorted()
        let median = sorted[sorted.count / 2], p90 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.9))]
        return "\(Int((median * 1000).rounded())) / \(Int((p90 * 1000).rounded()))"
    }
}

extension WakeBench.Outcome {
    mutating func add(_ other: WakeBench.Outcome) {
        woken += other.woken
        takes += other.takes
        latencies += other.latencies
        stretchEndLatencies += other.stretchEndLatencies
        missed += other.missed
    }
}

extension WakeTakes.Take {
    /// Whether `wake` counts for this take (see ``WakeBench/acceptanceSeconds``).
    func accepts(_ wake: WakeBench.Wake) -> Bool {
        let window = wake.atStretchEnd ? WakeBench.stretchEndAcceptanceSeconds : WakeBench.acceptanceSeconds
        return wake.time >= phraseStart && wake.time <= phraseEnd + window
    }
}
