import EarshotAudio
import EarshotRecordings
import Foundation
import Testing

/// `OpusFile.decode(_:path:)`, the in-memory reading the fuzzer drives, agrees with reading the file.
@Suite struct OpusMemoryDecodingTests {
    @Test func bytesInMemoryDecodeAsTheFileDoes() throws {
        let path = OpusFixture.scratch("memory.opus")
        let clip = AudioClip(samples: (0..<8_000).map { Float(sin(Double($0) * 0.1)) * 0.5 })
        try OpusFile.write(clip, to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fromFile = try OpusFile.read(path)
        let fromMemory = try OpusFile.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))), path: path)
        #expect(fromMemory.samples == fromFile.samples)
    }

    @Test func nothingIsCalledEmpty() {
        #expect(throws: AudioFileError(path: "x.opus", problem: .empty)) {
            try OpusFile.decode([], path: "x.opus")
        }
    }

    @Test func aWAVInMemoryIsRecognisedAsWAV() throws {
        let wav = WAVFile.encode(AudioClip(samples: [0, 0.5, -0.5, 0]))
        let error = try #require(throws: AudioFileError.self) { try OpusFile.decode(wav, path: "wav.opus") }
        #expect(error.description.contains("it looks like a WAV file"))
    }

    @Test func theFirstOpusPageAloneEndsInsideTheHeaders() throws {
        let path = OpusFixture.scratch("headers.opus")
        try OpusFile.write(AudioClip(samples: [Float](repeating: 0, count: 1_600)), to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(40))
        let error = try #require(throws: AudioFileError.self) { try OpusFile.decode(bytes, path: "headers.opus") }
        #expect(error.problem == .truncated("it ends inside its Opus headers"))
    }
}
