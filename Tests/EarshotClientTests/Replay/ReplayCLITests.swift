import EarshotAudio
import EarshotTestSupport
import Foundation
import Testing

/// Runs the built `earshot` binary as a person would.
@Suite(.tags(.live)) struct ReplayCLITests {
    static func run(_ arguments: [String]) throws -> BuiltProduct.Outcome {
        try BuiltProduct.run("earshot", arguments)
    }

    @Test func replayPrintsTheSameBytesTwice() throws {
        let file = TestFixtures.path("endpointer/two_phrases_short_pause.wav")
        let first = try Self.run(["replay", "--levels", file])
        let second = try Self.run(["replay", "--levels", file])
        #expect(first.status == 0)
        #expect(first.stdout.count > 1000)
        #expect(first.stdout == second.stdout)
        #expect(String(decoding: first.stdout, as: UTF8.self).contains(#"{"event":"speech","phase":"start""#))
    }

    @Test func realtimePacingChangesNothingButTheTiming() throws {
        let file = TestFixtures.path("endpointer/utterance_after_silence.wav")
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
        let result = try Self.run(["replay", "--levels", "--level-hz", "120", TestFixtures.path("endpointer/noise_bursts.wav")])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--level-hz"))
    }
}

/// `earshot vad` and `earshot vad-eval` as a person runs them.
@Suite(.tags(.live)) struct VADCLITests {
    @Test func framesPrintsOneCharacterPerTenMilliseconds() throws {
        let file = TestFixtures.path("endpointer/utterance_after_silence.wav")
        let clip = try WAVFile.read(TestFixtures.path("endpointer/utterance_after_silence.wav"))
        let result = try ReplayCLITests.run(["vad", file, "--format", "frames"])
        #expect(result.status == 0)
        let line = String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .newlines)
        #expect(line.count == clip.frameCount)
        #expect(line.allSatisfy { $0 == "0" || $0 == "1" })
        #expect(line.contains("1") && line.hasPrefix("000"))
    }

    @Test func segmentsAreJSONLinesOfSeconds() throws {
        let result = try ReplayCLITests.run(["vad", TestFixtures.path("endpointer/two_phrases_long_pause.wav"), "--format", "segments"])
        #expect(result.status == 0)
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2)
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Double])
            let start = try #require(object["start"]), end = try #require(object["end"])
            #expect(start < end)
        }
    }

    @Test func probabilitiesArePerFrameWithinZeroAndOne() throws {
        let clip = try WAVFile.read(TestFixtures.path("endpointer/noise_bursts.wav"))
        let result = try ReplayCLITests.run(["vad", TestFixtures.path("endpointer/noise_bursts.wav"), "--format", "probs"])
        let values = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").compactMap { Double($0) }
        #expect(values.count == clip.frameCount)
        #expect(values.allSatisfy { (0...1).contains($0) })
    }

    @Test func aFileThatIsNotWAVIsRefusedByName() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("earshot-vad-notwav.wav").path
        try Data("just some text, not audio".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try ReplayCLITests.run(["vad", path])
        #expect(result.status == 2)
        #expect(result.stderr.contains(path) && result.stderr.contains("not a WAV file"))
    }

    @Test func evaluatingADirectoryWithoutLabelsSaysWhatIsMissing() throws {
        let result = try ReplayCLITests.run(["vad-eval", FileManager.default.temporaryDirectory.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("manifest.csv"))
    }

    @Test func evaluatingTheBundledLabelledSetPrintsF1PerCondition() throws {
        let result = try ReplayCLITests.run(["vad-eval", TestFixtures.path("vad")])
        #expect(result.status == 0)
        let text = String(decoding: result.stdout, as: UTF8.self)
        #expect(text.contains("F1") && text.contains("clean") && text.contains("real-time factor"))
    }
}
