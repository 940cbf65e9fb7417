import EarshotAudio
import EarshotBase
import EarshotEngines
import Foundation

/// `earshot-bench wer [VAD_DEV]`: the embedded transcriber's word error rate, utterance by
/// utterance, on the clean scenes of the VAD dev set (whose labels carry the texts), synthetic
/// and real voices apart; with its real-time factor and the time from the end of an utterance's
/// audio to its final text.
enum TranscriptionBench {
    struct Utterance {
        var scene: String
        var text: String
        var isReal: Bool
        var samples: [Int16]
    }

    struct Tally {
        var utterances = 0
        var words = 0
        var errors = 0
        var audioSeconds = 0.0
        var decodeSeconds = 0.0
        var finalLatencies: [Double] = []

        var wordErrorRate: Double { words == 0 ? 0 : Double(errors) / Double(words) }
    }

    static func run(directory: String) throws {
        let utterances = try loadUtterances(from: directory)
        guard !utterances.isEmpty else {
            print("earshot-bench wer: no labelled utterances with texts in \(directory)")
            return
        }
        let loadStart = Date()
        let decoder = try PocketSphinxDecoder()
        let loadSeconds = Date().timeIntervalSince(loadStart)
        var synthetic = Tally(), real = Tally()
        for utterance in utterances {
            let started = Date()
            try decoder.beginUtterance()
            var lastChunkEnd = started
            for chunk in stride(from: 0, to: utterance.samples.count, by: 1600) {
                let end = min(chunk + 1600, utterance.samples.count)
                _ = try decoder.process(Array(utterance.samples[chunk..<end]))
                lastChunkEnd = Date()
            }
            let text = try decoder.endUtterance()
            let finished = Date()
            let reference = words(utterance.text), hypothesis = words(text)
            let errors = editDistance(reference, hypothesis)
            let seconds = Double(utterance.samples.count) / 16_000
            func add(_ tally: inout Tally) {
                tally.utterances += 1
                tally.words += reference.count
                tally.errors += errors
                tally.audioSeconds += seconds
                tally.decodeSeconds += finished.timeIntervalSince(started)
                tally.finalLatencies.append(finished.timeIntervalSince(lastChunkEnd))
            }
            if utterance.isReal { add(&real) } else { add(&synthetic) }
        }
        print("Embedded transcriber (pocketsphinx), clean scenes of \(directory), utterance by utterance")
        print("(model loaded in \(String(format: "%.2f", loadSeconds)) s; audio fed in 100 ms chunks as fast as it decodes)")
        print("| voices | utterances | words | WER | real-time factor | end of audio → final, median / max |")
        print("|---|---|---|---|---|---|")
        for (name, tally) in [("synthetic (espeak-ng, flite)", synthetic), ("real (recorded people)", real)] {
            let latencies = tally.finalLatencies.sorted()
            let median = latencies.isEmpty ? 0 : latencies[latencies.count / 2]
            print(
                "| \(name) | \(tally.utterances) | \(tally.words) | \(String(format: "%.3f", tally.wordErrorRate)) "
                    + "| \(String(format: "%.3f", tally.decodeSeconds / max(tally.audioSeconds, 1e-9))) "
                    + "| \(String(format: "%.0f", median * 1000)) / \(String(format: "%.0f", (latencies.last ?? 0) * 1000)) ms |"
            )
        }
    }

    /// The labelled utterances (span ± 50 ms, as cut for the set) that have a text.
    static func loadUtterances(from directory: String) throws -> [Utterance] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix("_clean.wav") }.sorted()
        var utterances: [Utterance] = []
        for name in names {
            let scene = String(name.dropLast("_clean.wav".count))
            let labels = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(scene).json"))))
            let clip = try WAVFile.read("\(directory)/\(name)")
            for segment in labels["segments"]?.arrayValue ?? [] {
                guard let text = segment["text"]?.stringValue, !text.isEmpty,
                    let start = segment["start"]?.doubleValue, let end = segment["end"]?.doubleValue
                else { continue }
                let first = max(0, Int(((start - 0.05) * 16_000).rounded()))
                let last = min(clip.samples.count, Int(((end + 0.05) * 16_000).rounded()))
                let samples = clip.samples[first..<last].map { Int16(max(-1, min(1, $0)) * 32767) }
                utterances.append(Utterance(scene: scene, text: text, isReal: segment["kind"]?.stringValue == "real", samples: samples))
            }
        }
        return utterances
    }

    /// Lower-case words without punctuation (apostrophes kept: "don't").
    static func words(_ text: String) -> [String] {
        let kept: [Character] = text.lowercased().map { character in
            character.isLetter || character.isNumber || character == "'" ? character : " "
        }
        return String(kept).split(separator: " ").map(String.init)
    }

    /// Substitutions + deletions + insertions turning `reference` into `hypothesis`.
    static func editDistance(_ reference: [String], _ hypothesis: [String]) -> Int {
        var previous = Array(0...hypothesis.count)
        for (i, word) in reference.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: hypothesis.count)
            for (j, candidate) in hypothesis.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (word == candidate ? 0 : 1))
            }
            previous = current
        }
        return previous[hypothesis.count]
    }
}
