@testable import EarshotAudio
import Foundation
import Testing

struct WAVRoundTripTests {
    /// Values spanning the full scale, including both ends and tiny ones.
    static let probe: [Float] = [0, 0.5, -0.5, -1, 0.999, -0.999, 0.25, 1e-3, -1e-3, 0.123_456_7] + TestSignal.noise(count: 990)

    static func quantizationStep(_ encoding: WAVSampleEncoding) -> Float {
        encoding.isFloat ? 0 : 1 / Float(1 << (encoding.bitsPerSample - 1))
    }

    @Test(arguments: WAVSampleEncoding.allCases, [false, true])
    func monoAt16kHzRoundTrips(encoding: WAVSampleEncoding, extensible: Bool) throws {
        let bytes = WAVFile.encode(samples: Self.probe, sampleRate: 16_000, encoding: encoding, extensible: extensible)
        let header = try WAVFile.format(of: bytes, path: "probe.wav")
        #expect(header.format == WAVFormat(sampleRate: 16_000, channels: 1, encoding: encoding))
        #expect(header.frameCount == Self.probe.count)

        let clip = try WAVFile.decode(bytes, path: "probe.wav")
        #expect(clip.samples.count == Self.probe.count)
        // Rounding to the nearest level is off by at most half a step (plus float rounding for 32-bit);
        // values above the highest level, one step below +1, clip to it.
        let step = Self.quantizationStep(encoding)
        let tolerance = step / 2 + 1e-7
        let expected = Self.probe.map { min($0, 1 - step) }
        let worst = zip(clip.samples, expected).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst <= tolerance, "\(encoding): worst error \(worst)")
    }

    @Test(arguments: WAVSampleEncoding.allCases)
    func stereoIsAveragedToMono(encoding: WAVSampleEncoding) throws {
        let left: [Float] = [0.5, -0.25, 1, 0, -1, 0.75]
        let right: [Float] = [0.25, -0.75, -1, 0.5, -0.5, 0.75]
        let interleaved = zip(left, right).flatMap { [$0, $1] }
        let bytes = WAVFile.encode(samples: interleaved, sampleRate: 16_000, channels: 2, encoding: encoding)
        let clip = try WAVFile.decode(bytes, path: "stereo.wav")
        let expected = zip(left, right).map { ($0 + $1) / 2 }
        let tolerance = Self.quantizationStep(encoding)
        #expect(clip.samples.count == expected.count)
        for (got, want) in zip(clip.samples, expected) {
            #expect(abs(got - want) <= tolerance, "\(encoding): \(got) vs \(want)")
        }
    }

    @Test func eightBitPCMIsUnsignedAroundMidpoint() throws {
        let bytes = WAVFile.encode(samples: [0, -1, 1, 0.5], sampleRate: 16_000, encoding: .unsigned8)
        let data = Array(bytes.suffix(from: 44).prefix(4))
        #expect(data == [128, 0, 255, 192])
        #expect(try WAVFile.decode(bytes, path: "u8.wav").samples == [0, -1, 127.0 / 128, 0.5])
    }

    @Test func clipEncodesAsCanonical16kHzMono16BitFile() {
        let bytes = WAVFile.encode(AudioClip(samples: [0, 0.5, -1, 2, -3, .nan]))
        let header: [UInt8] = Array("RIFF".utf8) + [48, 0, 0, 0] + Array("WAVEfmt ".utf8) + [16, 0, 0, 0]
            + [1, 0, 1, 0] + [0x80, 0x3E, 0, 0] + [0, 0x7D, 0, 0] + [2, 0, 16, 0] + Array("data".utf8) + [12, 0, 0, 0]
        #expect(Array(bytes.prefix(44)) == header)
        // Out-of-range samples clamp to full scale and NaN becomes silence.
        #expect(Array(bytes.dropFirst(44)) == WAVTestBytes.pcm16([0, 16_384, -32_768, 32_767, -32_768, 0]))
    }

    @Test func writtenFileReadsBack() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("earshot-audio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("clip.wav").path
        let clip = AudioClip(samples: TestSignal.sine(frequency: 440, sampleRate: 16_000, seconds: 0.3))

        try WAVFile.write(clip, to: path)
        let back = try WAVFile.read(path)
        #expect(back.samples.count == clip.samples.count)
        #expect(zip(back.samples, clip.samples).allSatisfy { abs($0 - $1) <= 1.0 / 65_536 })
    }

    @Test func unknownChunksAndOddPaddingAreSkipped() throws {
        let samples: [Int16] = [1000, -2000, 3000]
        let bytes = WAVTestBytes.riff(
            WAVTestBytes.chunk("JUNK", [UInt8](repeating: 0, count: 28)),
            WAVTestBytes.formatChunk(),
            WAVTestBytes.chunk("LIST", Array("INFOISFT\u{5}\0\0\0Lavf\0".utf8)),
            WAVTestBytes.chunk("fact", WAVTestBytes.littleEndian(UInt32(3))),
            WAVTestBytes.chunk("data", WAVTestBytes.pcm16(samples)),
            WAVTestBytes.chunk("id3 ", [1, 2, 3])
        )
        let clip = try WAVFile.decode(bytes, path: "chunks.wav")
        #expect(clip.samples == samples.map { Float($0) / 32_768 })
    }

    @Test(arguments: [UInt32(0), UInt32.max])
    func unsetDataSizeMeansToTheEndOfTheFile(declared: UInt32) throws {
        let samples: [Int16] = [1, 2, 3, 4, 5]
        let bytes = WAVTestBytes.riff(WAVTestBytes.formatChunk())
            + Array("data".utf8) + WAVTestBytes.littleEndian(declared) + WAVTestBytes.pcm16(samples)
        #expect(try WAVFile.decode(bytes, path: "stream.wav").samples == samples.map { Float($0) / 32_768 })
    }

    @Test func trailingPartialFrameIsDropped() throws {
        let bytes = WAVTestBytes.riff(
            WAVTestBytes.formatChunk(channels: 2),
            WAVTestBytes.chunk("data", WAVTestBytes.pcm16([100, 300, 500]))
        )
        #expect(try WAVFile.decode(bytes, path: "partial.wav").samples == [200.0 / 32_768])
    }

    @Test func narrowPCMIsReadFromItsWholeByteContainer() throws {
        // 12-bit samples are left-justified in 16-bit containers; the low 4 bits are zero.
        let bytes = WAVTestBytes.riff(
            WAVTestBytes.formatChunk(blockAlign: 2, bits: 12),
            WAVTestBytes.chunk("data", WAVTestBytes.pcm16([0x7FF0, -0x8000, 0x0010]))
        )
        #expect(try WAVFile.format(of: bytes, path: "12bit.wav").format.encoding == .signed16)
        #expect(try WAVFile.decode(bytes, path: "12bit.wav").samples == [Float(0x7FF0) / 32_768, -1, Float(0x10) / 32_768])
    }

    @Test func byteSlicesAndNonContiguousCollectionsDecodeAlike() throws {
        let bytes = WAVFile.encode(samples: [0.25, -0.5], sampleRate: 16_000)
        let padded = [0, 0] + bytes
        let expected = try WAVFile.decode(bytes, path: "a.wav").samples
        #expect(try WAVFile.decode(padded[2...], path: "a.wav").samples == expected)
        #expect(try WAVFile.decode(bytes.lazy.map { $0 }, path: "a.wav").samples == expected)
        #expect(expected == [0.25, -0.5])
    }

    @Test(arguments: [(44_100, WAVSampleEncoding.signed24, 2), (48_000, .float32, 1), (8_000, .unsigned8, 1), (22_050, .signed32, 2), (11_025, .float64, 1)])
    func otherRatesAreConvertedTo16kHz(sampleRate: Int, encoding: WAVSampleEncoding, channels: Int) throws {
        let seconds = 0.5
        let tone = TestSignal.sine(frequency: 1_000, sampleRate: sampleRate, seconds: seconds)
        let interleaved = channels == 1 ? tone : tone.flatMap { [$0, $0] }
        let bytes = WAVFile.encode(samples: interleaved, sampleRate: sampleRate, channels: channels, encoding: encoding)
        let clip = try WAVFile.decode(bytes, path: "tone.wav")
        #expect(clip.samples.count == 8_000)
        let fit = TestSignal.component(of: clip.samples, frequency: 1_000, sampleRate: 16_000, range: 800..<7_200)
        #expect(abs(TestSignal.decibels(fit.amplitude / 0.5)) < 0.1)
        #expect(abs(fit.phase) < 0.01)
    }
}
