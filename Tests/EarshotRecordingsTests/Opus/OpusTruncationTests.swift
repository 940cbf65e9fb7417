import EarshotAudio
import EarshotRecordings
import Foundation
import Testing

/// A recording cut off while being written or copied: what is there decodes, nothing crashes.
@Suite struct OpusTruncationTests {
    @Test func aFileCutInHalfDecodesItsFirstHalf() throws {
        let original = try WAVFile.read(OpusFixture.path("endpointer/two_phrases_long_pause.wav"))
        let path = OpusFixture.scratch("halved.opus")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try OpusFile.write(original, to: path)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path))

        let decoded = try OpusFile.read(path)
        let fraction = Double(decoded.samples.count) / Double(original.samples.count)
        // Speech takes more bytes than the pause, and pages hold up to a second, so half the bytes is not half the time.
        #expect(fraction > 0.25 && fraction < 0.75, "decoded \(fraction) of the original")
        // What was decoded is the start of the recording, not noise: it matches the original closely.
        let error = zip(decoded.samples, original.samples).map { ($0 - $1) * ($0 - $1) }.reduce(0, +)
        let power = original.samples.prefix(decoded.samples.count).map { $0 * $0 }.reduce(0, +)
        #expect(error < power * 0.5)
    }

    @Test func aFileCutInsideItsHeadersIsCalledTruncated() throws {
        let path = OpusFixture.scratch("headers-only.opus")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try OpusFile.write(AudioClip(samples: [Float](repeating: 0, count: 16_000)), to: path)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        try whole.prefix(40).write(to: URL(fileURLWithPath: path))
        #expect(throws: AudioFileError(path: path, problem: .truncated("it ends inside its Opus headers"))) {
            try OpusFile.read(path)
        }
    }
}
