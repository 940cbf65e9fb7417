import ArgumentParser
import EarshotAudio
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

struct VADEvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vad-eval",
        abstract: "Score the voice-activity detector on a labelled set laid out like vad-dev.",
        discussion: """
            DIR needs manifest.csv and one <scene>.json per scene with a "frames" label string. \
            Frames are scored on the detector's causal decisions. Onset latency: for each labelled \
            speech segment, the time from its labelled start until the decision that first calls a \
            frame of the segment speech is available (that frame's end plus the 30 ms look-ahead); \
            missed segments are counted apart. The real-time factor is detector time (CPU time of \
            the one thread it runs on, and wall time; decoding excluded) per second of audio.
            """
    )

    @Argument(help: "Directory of the labelled set.")
    var directory: String

    @Flag(help: "Print machine-readable JSON instead of tables.")
    var json = false

    @Flag(help: "Also list every recording.")
    var files = false

    @Option(help: "Speech posterior at or above which a frame counts as speech (default: the tuned 0.5).")
    var threshold: Float?

    func run() throws {
        let set: LabelledSpeechSet
        do {
            set = try LabelledSpeechSet(directory: directory)
        } catch {
            FileHandle.standardError.write(Data("earshot: \(error.description)\n".utf8))
            throw ExitCode(2)
        }
        let evaluation: VADEvaluation
        do {
            let configuration = SpectralVAD.Configuration(threshold: threshold ?? SpectralVAD.Configuration().threshold)
            evaluation = try VADEvaluation.run({ SpectralVAD(configuration: configuration) }, on: set, cpuClock: Self.threadCPUSeconds)
        } catch {
            FileHandle.standardError.write(Data("earshot: \(error.description)\n".utf8))
            throw ExitCode(2)
        }
        let text = json ? try Self.json(evaluation, directory: directory) : Self.tables(evaluation, directory: directory, listFiles: files)
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    private static func tables(_ evaluation: VADEvaluation, directory: String, listFiles: Bool) -> String {
        var out = "SpectralVAD on \(directory): " + String(
            format: "%d recordings, %.1f s of audio\n\n", evaluation.results.count, evaluation.audioSeconds
        )
        out += table(title: "condition", rows: evaluation.byCondition.map { ($0.name, $0.score) } + [("all", evaluation.overall)])
        out += "\n"
        out += table(title: "noise", rows: evaluation.byNoise.map { ($0.name, $0.score) })
        if listFiles {
            out += "\n"
            out += table(title: "file", rows: evaluation.results.map { ($0.recording.file, $0.score) })
        }
        out += String(
            format: "\nreal-time factor %.5f CPU, %.5f wall (%.1f s of audio in %.3f s of detector CPU time, %.3f s wall, one thread)\n",
            evaluation.cpuRealTimeFactor ?? .nan, evaluation.realTimeFactor, evaluation.audioSeconds,
            evaluation.processingCPUSeconds ?? .nan, evaluation.processingSeconds
        )
        return out
    }

    /// CPU time consumed by the calling thread, seconds.
    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    private static func table(title: String, rows: [(String, VADScore)]) -> String {
        let width = max(title.count, rows.map(\.0.count).max() ?? 0)
        func pad(_ text: String) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
        var out = pad(title) + "   frames  precision  recall     F1  false alarms  onset ms (median)  missed segments\n"
        for (name, score) in rows {
            let latency = score.medianOnsetLatencyMs.map { String(format: "%17.0f", $0) } ?? String(repeating: " ", count: 16) + "-"
            out += pad(name)
                + String(format: " %8d %10.3f %7.3f %6.3f %12.3f  ", score.frames, score.precision, score.recall, score.f1, score.falseAlarmRate)
                + latency + String(format: "  %8d of %d\n", score.missedSegments, score.segments)
        }
        return out
    }

    private struct Report: Encodable {
        struct Row: Encodable {
            var name: String
            var frames: Int
            var precision: Double
            var recall: Double
            var f1: Double
            var falseAlarmRate: Double
            var medianOnsetLatencyMs: Double?
            var segments: Int
            var missedSegments: Int

            init(_ name: String, _ score: VADScore) {
                self.name = name
                frames = score.frames
                precision = score.precision
                recall = score.recall
                f1 = score.f1
                falseAlarmRate = score.falseAlarmRate
                medianOnsetLatencyMs = score.medianOnsetLatencyMs
                segments = score.segments
                missedSegments = score.missedSegments
            }
        }

        var directory: String
        var audioSeconds: Double
        var processingSeconds: Double
        var processingCPUSeconds: Double?
        var realTimeFactor: Double
        var cpuRealTimeFactor: Double?
        var conditions: [Row]
        var noises: [Row]
        var overall: Row
        var files: [Row]
    }

    private static func json(_ evaluation: VADEvaluation, directory: String) throws -> String {
        let report = Report(
            directory: directory,
            audioSeconds: evaluation.audioSeconds,
            processingSeconds: evaluation.processingSeconds,
            processingCPUSeconds: evaluation.processingCPUSeconds,
            realTimeFactor: evaluation.realTimeFactor,
            cpuRealTimeFactor: evaluation.cpuRealTimeFactor,
            conditions: evaluation.byCondition.map { Report.Row($0.name, $0.score) },
            noises: evaluation.byNoise.map { Report.Row($0.name, $0.score) },
            overall: Report.Row("all", evaluation.overall),
            files: evaluation.results.map { Report.Row($0.recording.file, $0.score) }
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
    }
}
