@testable import EarshotAudio
import Foundation
import Testing

struct WAVErrorTests {
    static let name = "takes/session-7/take 3.wav"
    static let pcm = WAVTestBytes.chunk("data", WAVTestBytes.pcm16([1, 2, 3, 4]))

    /// Decodes `bytes`, expecting failure; returns the error after checking it names the file.
    func failure(_ bytes: [UInt8]) -> AudioFileError? {
        let error = #expect(throws: AudioFileError.self) { try WAVFile.decode(bytes, path: Self.name) }
        #expect(error?.path == Self.name)
        #expect(error?.description.hasPrefix(Self.name + ": ") == true)
        return error
    }

    @Test func missingFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("earshot-no-such-\(UUID().uuidString).wav").path
        let error = #expect(throws: AudioFileError.self) { try WAVFile.read(path) }
        #expect(error?.problem == .missingFile)
        #expect(error?.description == "\(path): no such file")
    }

    @Test func directoryIsUnreadable() {
        let path = FileManager.default.temporaryDirectory.path
        let error = #expect(throws: AudioFileError.self) { try WAVFile.read(path) }
        #expect(error?.problem == .unreadable("it is a directory"))
        #expect(error?.description.contains(path) == true)
    }

    @Test func emptyFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("earshot-empty-\(UUID().uuidString).wav").path
        try WAVFile.write(bytes: [], to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: AudioFileError.self) { try WAVFile.read(path) }
        #expect(error?.problem == .empty)
        #expect(error?.description == "\(path): the file is empty (0 bytes)")
        #expect(failure([])?.problem == .empty)
    }

    @Test func unwritableDirectory() {
        let path = "/nonexistent-earshot-dir/out.wav"
        let error = #expect(throws: AudioFileError.self) { try WAVFile.write(AudioClip(samples: [0]), to: path) }
        #expect(error?.problem == .unwritable("its directory does not exist"))
        #expect(error?.description.contains(path) == true)
    }

    @Test func notRIFF() {
        let error = failure(Array("hello, this is plain text, no audio".utf8))
        #expect(error?.problem == .notRIFF)
        #expect(error?.description.contains("not a WAV file") == true)
    }

    @Test func otherContainerIsNamed() {
        #expect(failure(Array("fLaC\0\0\0\"".utf8) + [UInt8](repeating: 0, count: 40))?.problem == .notWAV("a FLAC file"))
        #expect(failure(Array("ID3\u{4}\0\0\0\0\0\0".utf8))?.problem == .notWAV("an MP3 file"))
        let error = failure(Array("RIFX".utf8) + [0, 0, 0, 36] + Array("WAVE".utf8))
        #expect(error?.description.contains("big-endian") == true)
    }

    @Test func truncatedHeader() {
        let riffOnly = failure(Array("RIFF".utf8) + [100, 0, 0, 0])
        #expect(riffOnly?.problem == .truncatedHeader("the file has only 8 bytes, fewer than the 12 of a RIFF/WAVE header"))
        #expect(riffOnly?.description.contains("header is truncated") == true)

        let cutFormat = failure(Array(WAVTestBytes.riff(WAVTestBytes.formatChunk()).prefix(30)))
        #expect(cutFormat?.problem == .truncatedHeader("the fmt chunk declares 16 bytes but the file ends after 10"))

        let cutChunkHeader = failure(WAVTestBytes.riff(WAVTestBytes.formatChunk()) + Array("dat".utf8))
        #expect(cutChunkHeader?.problem == .truncatedHeader("the file ends 3 bytes into a chunk header at byte 36"))
    }

    @Test func formatChunkMissing() {
        let error = failure(WAVTestBytes.riff(Self.pcm))
        #expect(error?.problem == .missingFormatChunk)
        #expect(error?.description.contains("no fmt chunk") == true)
    }

    @Test func formatChunkTooShort() {
        let error = failure(WAVTestBytes.riff(WAVTestBytes.chunk("fmt ", Array(WAVTestBytes.formatBody().prefix(14))), Self.pcm))
        #expect(error?.problem == .formatChunkTooShort(size: 14, required: 16))
        #expect(error?.description.contains("only 14 bytes") == true)

        let extensible = failure(WAVTestBytes.riff(WAVTestBytes.chunk("fmt ", WAVTestBytes.formatBody(tag: 0xFFFE) + [0, 0]), Self.pcm))
        #expect(extensible?.problem == .formatChunkTooShort(size: 18, required: 40))
    }

    @Test func dataChunkMissing() {
        let error = failure(WAVTestBytes.riff(WAVTestBytes.formatChunk(), WAVTestBytes.chunk("LIST", [1, 2, 3, 4])))
        #expect(error?.problem == .missingDataChunk)
        #expect(error?.description.contains("no data chunk") == true)
    }

    @Test func dataChunkShorterThanDeclared() {
        let bytes = WAVTestBytes.riff(WAVTestBytes.formatChunk())
            + WAVTestBytes.chunk("data", [UInt8](repeating: 0, count: 1_000), declaredSize: 32_000)
        let error = failure(bytes)
        #expect(error?.problem == .truncatedData(present: 1_000, declared: 32_000))
        #expect(error?.description.contains("only 1000 of the 32000 bytes of audio") == true)
    }

    @Test func chunkRunningPastTheEndBeforeTheData() {
        let bytes = WAVTestBytes.riff(WAVTestBytes.formatChunk()) + WAVTestBytes.chunk("LIST", [1, 2], declaredSize: 5_000)
        let error = failure(bytes)
        #expect(error?.problem == .truncated("the 'LIST' chunk at byte 36 declares 5000 bytes but only 2 remain, and no data chunk came before it"))
    }

    @Test func blockAlignInconsistent() {
        let error = failure(WAVTestBytes.riff(WAVTestBytes.formatChunk(channels: 2, blockAlign: 3), Self.pcm))
        #expect(error?.problem == .inconsistentBlockAlign(declared: 3, expected: 4, channels: 2, bitsPerSample: 16))
        #expect(error?.description.contains("block align is 3 bytes, but 2 channel(s) of 16-bit samples need 4") == true)
    }

    @Test(arguments: [UInt32(0), 999, 5_000_000, UInt32.max])
    func implausibleSampleRate(rate: UInt32) {
        let error = failure(WAVTestBytes.riff(WAVTestBytes.formatChunk(sampleRate: rate), Self.pcm))
        #expect(error?.problem == .invalidSampleRate(Int(rate)))
        #expect(error?.description.contains("sample rate of \(rate) Hz") == true)
    }

    @Test func unsupportedEncodingIsNamed() {
        let adpcm = failure(WAVTestBytes.riff(WAVTestBytes.formatChunk(tag: 0x11, blockAlign: 256, bits: 4), Self.pcm))
        #expect(adpcm?.problem == .unsupportedEncoding(.imaADPCM))
        #expect(adpcm?.description.contains("unsupported audio encoding IMA ADPCM (format 0x0011)") == true)

        let aLaw = failure(WAVTestBytes.riff(WAVTestBytes.formatChunk(tag: 6, bits: 8), Self.pcm))
        #expect(aLaw?.description.contains("A-law (format 0x0006)") == true)

        let unknown = failure(WAVTestBytes.riff(WAVTestBytes.formatChunk(tag: 0x1234), Self.pcm))
        #expect(unknown?.description.contains("an unknown encoding (format 0x1234)") == true)
    }

    @Test func extensibleWithUnsupportedSubFormat() {
        var body = WAVTestBytes.formatBody(tag: 0xFFFE, blockAlign: 1, bits: 8)
        body += WAVTestBytes.littleEndian(UInt16(22)) + WAVTestBytes.littleEndian(UInt16(8)) + WAVTestBytes.littleEndian(UInt32(4))
        let guidTail: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        let muLaw = failure(WAVTestBytes.riff(WAVTestBytes.chunk("fmt ", body + [7, 0] + guidTail), Self.pcm))
        #expect(muLaw?.problem == .unsupportedEncoding(.muLaw))

        let foreignGUID = failure(WAVTestBytes.riff(WAVTestBytes.chunk("fmt ", body + [UInt8](repeating: 0xAB, count: 16)), Self.pcm))
        #expect(foreignGUID?.description.contains("sub-format GUID") == true)
    }

    @Test func threeOrMoreChannelsAreUnsupported() {
        let bytes = WAVFile.encode(samples: [Float](repeating: 0.1, count: 6 * 10), sampleRate: 48_000, channels: 6)
        let error = failure(bytes)
        #expect(error?.problem == .unsupportedChannelCount(6))
        #expect(error?.description.contains("unsupported channel count 6; only mono and stereo") == true)
        #expect(failure(WAVTestBytes.riff(WAVTestBytes.formatChunk(channels: 0, blockAlign: 2), Self.pcm))?.problem
            == .corrupt("the fmt chunk declares 0 channels"))
    }

    @Test func unsupportedBitDepth() {
        let wide = failure(WAVTestBytes.riff(WAVTestBytes.formatChunk(bits: 48), Self.pcm))
        #expect(wide?.problem == .unsupportedBitDepth(bits: 48, encoding: "PCM"))
        #expect(wide?.description.contains("unsupported bit depth: 48-bit PCM") == true)

        let halfFloat = failure(WAVTestBytes.riff(WAVTestBytes.formatChunk(tag: 3, bits: 16), Self.pcm))
        #expect(halfFloat?.problem == .unsupportedBitDepth(bits: 16, encoding: "IEEE float"))
        #expect(failure(WAVTestBytes.riff(WAVTestBytes.formatChunk(blockAlign: 0, bits: 0), Self.pcm))?.problem
            == .unsupportedBitDepth(bits: 0, encoding: "PCM"))
    }
}
