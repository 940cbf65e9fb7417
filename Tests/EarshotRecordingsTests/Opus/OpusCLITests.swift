import EarshotAudio
import EarshotRecordings
import EarshotTestSupport
import Foundation
import Testing

/// `earshot replay` given Ogg Opus files, run as a person would.
@Suite(.tags(.live)) struct OpusCLITests {
    static let wav = OpusFixture.path("endpointer/two_phrases_long_pause.wav")

    @Test func replayOfAnOpusFilePrintsItsSpeech() throws {
        let path = OpusFixture.scratch("replay.opus")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try OpusFile.write(try WAVFile.read(Self.wav), to: path)
        let result = try BuiltProduct.run("earshot", ["replay", path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdoutText.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix(#"{"event":"speech","phase":"start""#) }.count == 2)
        #expect(lines.filter { $0.hasPrefix(#"{"event":"speech","phase":"end""#) }.count == 2)
    }

    @Test func aWAVFileNamedOpusIsReadAsTheWAVItIs() throws {
        let path = OpusFixture.scratch("misnamed.opus")
        try FileManager.default.copyItem(atPath: Self.wav, toPath: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let misnamed = try BuiltProduct.run("earshot", ["replay", path])
        let original = try BuiltProduct.run("earshot", ["replay", Self.wav])
        #expect(misnamed.status == 0, "\(misnamed.stderr)")
        #expect(misnamed.stdout == original.stdout)
    }

    @Test func aBrokenOpusFileIsNamedWithWhatIsWrong() throws {
        let path = OpusFixture.scratch("broken.opus")
        try Data(repeating: 0x5A, count: 1_000).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try BuiltProduct.run("earshot", ["replay", path])
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(path))
        #expect(result.stderr.contains("not an Ogg Opus file"))
    }
}
