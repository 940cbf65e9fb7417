import Foundation
import Testing

/// Runs the built `earshot` binary as a person would.
@Suite struct CLITests {
    static let binary: URL? = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("earshot"),
            Fixture.repository.appendingPathComponent(".build/debug/earshot"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    struct MissingBinary: Error, CustomStringConvertible {
        var description: String { "the earshot binary is not built: run `swift build` first" }
    }

    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: String
    }

    static func run(_ arguments: [String]) throws -> Result {
        let process = Process()
        guard let binary else { throw MissingBinary() }
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: stdout, stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test func replayPrintsTheSameBytesTwice() throws {
        let file = Fixture.path("endpointer/two_phrases_short_pause.wav")
        let first = try Self.run(["replay", "--levels", file])
        let second = try Self.run(["replay", "--levels", file])
        #expect(first.status == 0)
        #expect(first.stdout.count > 1000)
        #expect(first.stdout == second.stdout)
        #expect(String(decoding: first.stdout, as: UTF8.self).contains(#"{"event":"speech","phase":"start""#))
    }

    @Test func realtimePacingChangesNothingButTheTiming() throws {
        let file = Fixture.path("endpointer/utterance_after_silence.wav")
        let fast = try Self.run(["replay", "--levels", file])
        let paced = try Self.run(["replay", "--levels", "--realtime", file])
        #expect(paced.status == 0)
        #expect(paced.stdout == fast.stdout)
    }

    @Test func aCorruptFileIsNamedWithWhatIsWrong() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("earshot-cli-corrupt.wav").path
        try Data("RIFF\u{4}\0\0\0WAVE".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Self.run(["replay", path])
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(path))
    }

    @Test func aMissingFileIsNamed() throws {
        let result = try Self.run(["replay", "/nonexistent/earshot.wav"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("/nonexistent/earshot.wav"))
    }

    @Test func levelRateOutsideOneToSixtyIsRefused() throws {
        let result = try Self.run(["replay", "--levels", "--level-hz", "120", Fixture.path("endpointer/noise_bursts.wav")])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--level-hz"))
    }
}
