import Foundation

/// The soak's second half: the same audio replayed whole and in pieces (`earshot replay` given
/// the pieces in order), with transcription and levels; the two logs must be the same bytes.
enum SoakReplay {
    struct Comparison {
        var identical: Bool
        var lines: Int
        var bytes: Int
        /// Where they part: the line number (from 1) and each side's line.
        var firstDifference: (line: Int, whole: String, pieces: String)?
        var seconds: Double
    }

    static let options = ["--stt", "embedded", "--levels", "--level-hz", "60", "--no-script"]

    /// Runs both replays at once (one core each) and compares what they printed.
    static func compare(whole: String, pieces: [String], earshot: String, outputDirectory: String) throws -> Comparison {
        let start = Date()
        let wholeLog = outputDirectory + "/replay-whole.jsonl"
        let piecesLog = outputDirectory + "/replay-pieces.jsonl"
        let runs = try [
            launch(earshot, ["replay", whole] + options, output: wholeLog),
            launch(earshot, ["replay"] + pieces + options, output: piecesLog),
        ]
        for run in runs {
            run.waitUntilExit()
            guard run.terminationStatus == 0 else {
                throw LiveBench.Failure(description: "earshot \(run.arguments?.joined(separator: " ") ?? "") exited with \(run.terminationStatus)")
            }
        }
        let seconds = Date().timeIntervalSince(start)
        let a = try Data(contentsOf: URL(fileURLWithPath: wholeLog))
        let b = try Data(contentsOf: URL(fileURLWithPath: piecesLog))
        let wholeLines = a.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard a != b else {
            return Comparison(identical: true, lines: wholeLines.count - 1, bytes: a.count, seconds: seconds)
        }
        let pieceLines = b.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let index = zip(wholeLines, pieceLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(wholeLines.count, pieceLines.count)
        func text(_ lines: [Data], _ index: Int) -> String {
            index < lines.count ? String(decoding: lines[index], as: UTF8.self) : "(end of the log)"
        }
        return Comparison(
            identical: false, lines: wholeLines.count - 1, bytes: a.count,
            firstDifference: (index + 1, text(wholeLines, index), text(pieceLines, index)), seconds: seconds
        )
    }

    private static func launch(_ executable: String, _ arguments: [String], output: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        try process.run()
        return process
    }
}
