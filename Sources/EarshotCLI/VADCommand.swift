import ArgumentParser
import EarshotAudio
import EarshotDetection
import Foundation

struct VADCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vad",
        abstract: "Detect speech in a WAV file with the streaming detector, 10 ms frame by frame.",
        discussion: """
            Decisions are the detector's causal ones (30 ms look-ahead); the last frames are \
            flushed with silence, so every frame of the file gets a verdict.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case frames, probs, segments, features
    }

    @Argument(help: "WAV file to analyse.")
    var file: String

    @Option(help: """
        frames: one line, one character per frame (1 speech, 0 not); probs: one speech probability \
        per line; segments: JSON lines {"start":s,"end":s} of speech runs; features: the raw \
        per-frame features as CSV (for Scripts/fit_vad.py).
        """)
    var format: Format = .frames

    @Option(help: "Speech posterior at or above which a frame counts as speech (default: the tuned 0.5).")
    var threshold: Float?

    func run() throws {
        let clip = try AudioInput.read(file)
        var detector = SpectralVAD(configuration: .init(threshold: threshold ?? SpectralVAD.Configuration().threshold))
        var output = ""
        switch format {
        case .frames:
            let verdicts = detector.verdicts(for: clip)
            output.reserveCapacity(verdicts.count + 1)
            for verdict in verdicts { output.append(verdict.isSpeech ? "1" : "0") }
            output.append("\n")
        case .probs:
            for verdict in detector.verdicts(for: clip) {
                output += String(format: "%.3f\n", verdict.probability)
            }
        case .segments:
            let verdicts = detector.verdicts(for: clip)
            var start: Int?
            for (index, verdict) in verdicts.enumerated() {
                if verdict.isSpeech, start == nil { start = index }
                if !verdict.isSpeech, let first = start {
                    output += Self.segmentLine(from: first, to: index)
                    start = nil
                }
            }
            if let first = start { output += Self.segmentLine(from: first, to: verdicts.count) }
        case .features:
            output = SpectralVAD.featureNames.joined(separator: ",") + "\n"
            for row in SpectralVAD.featureTrace(for: clip) {
                output += row.map { String(format: "%.5g", $0) }.joined(separator: ",") + "\n"
            }
        }
        FileHandle.standardOutput.write(Data(output.utf8))
    }

    private static func segmentLine(from start: Int, to end: Int) -> String {
        String(format: "{\"start\":%.2f,\"end\":%.2f}\n", Double(start) * 0.01, Double(end) * 0.01)
    }
}
