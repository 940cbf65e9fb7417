import EarshotAudio
import EarshotRecordings
import Foundation
import Testing

@Suite struct OpusRoundTripTests {
    static let wav = OpusFixture.path("endpointer/two_phrases_long_pause.wav")

    @Test func speechBoundariesSurviveEncodingWithin30Milliseconds() throws {
        let original = try WAVFile.read(Self.wav)
        let path = OpusFixture.scratch("round-trip.opus")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try OpusFile.write(original, to: path)
        let decoded = try OpusFile.read(path)

        // 20 ms at 16 kHz.
        #expect(abs(decoded.samples.count - original.samples.count) <= 320)
        let expected = OpusFixture.speechEvents(original)
        let actual = OpusFixture.speechEvents(decoded)
        #expect(expected.count == 4)
        #expect(actual.map(\.turn) == expected.map(\.turn))
        #expect(actual.map { $0.audioStart == nil } == expected.map { $0.audioStart == nil })
        var largest = 0.0
        for (a, e) in zip(actual, expected) {
            largest = max(largest, abs(a.time - e.time), abs((a.audioStart ?? 0) - (e.audioStart ?? 0)))
        }
        // Boundaries fall on 10 ms frames, so 30 ms is three frames; the epsilon absorbs the times' rounding.
        #expect(largest <= 0.030 + 1e-9, "the largest speech boundary difference is \(largest) s")
    }

    @Test func theFileIsOggOpusMarkedAsEarshots() throws {
        let path = OpusFixture.scratch("marked.opus")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try OpusFile.write(AudioClip(samples: [Float](repeating: 0, count: 16_000)), to: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.prefix(4) == Data("OggS".utf8))
        #expect(bytes.range(of: Data("OpusHead".utf8)) != nil)
        #expect(bytes.range(of: Data("ENCODER=Earshot".utf8)) != nil)
    }

    @Test func aWriterFedInPiecesKeepsTheLength() throws {
        let path = OpusFixture.scratch("pieces.opus")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let tone = (0..<48_000).map { Float(sin(Double($0) * 2 * .pi * 440 / 16_000)) * 0.5 }
        var writer = try OpusFileWriter(path: path)
        for start in stride(from: 0, to: tone.count, by: 1_000) {
            try writer.append(tone[start..<min(start + 1_000, tone.count)])
        }
        try writer.finish()
        let decoded = try OpusFile.read(path)
        #expect(abs(decoded.samples.count - tone.count) <= 320)
        let energy = decoded.samples.reduce(0) { $0 + $1 * $1 } / Float(decoded.samples.count)
        #expect(energy > 0.1, "a 0.5-amplitude tone has a mean power near 0.125")
    }
}
