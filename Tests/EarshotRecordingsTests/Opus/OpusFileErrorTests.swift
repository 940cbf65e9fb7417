import EarshotAudio
import EarshotRecordings
import Foundation
import Testing

@Suite struct OpusFileErrorTests {
    static func readError(_ path: String) -> AudioFileError? {
        do {
            _ = try OpusFile.read(path)
            return nil
        } catch {
            return error
        }
    }

    @Test func aMissingFileIsNamed() throws {
        let error = try #require(Self.readError("/nonexistent/earshot.opus"))
        #expect(error.problem == .missingFile)
        #expect(error.description == "/nonexistent/earshot.opus: no such file")
    }

    @Test func aWAVFileNamedOpusIsRecognisedAsWAV() throws {
        let path = OpusFixture.scratch("really-a-wav.opus")
        try FileManager.default.copyItem(atPath: OpusFixture.path("endpointer/two_phrases_long_pause.wav"), toPath: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = try #require(Self.readError(path))
        #expect(error.path == path)
        #expect(error.description.contains("not an Ogg Opus file"))
        #expect(error.description.contains("it looks like a WAV file"))
    }

    @Test func randomBytesAreNotOggOpus() throws {
        let path = OpusFixture.scratch("noise.opus")
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let bytes = (0..<8_192).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = try #require(Self.readError(path))
        #expect(error.path == path)
        #expect(error.description.contains("not an Ogg Opus file"))
    }

    @Test func anEmptyFileIsCalledEmpty() throws {
        let path = OpusFixture.scratch("empty.opus")
        try Data().write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(Self.readError(path) == AudioFileError(path: path, problem: .empty))
    }

    @Test func writingIntoAMissingDirectorySaysSo() {
        let path = "/nonexistent/earshot.opus"
        #expect(throws: AudioFileError(path: path, problem: .unwritable("its directory does not exist"))) {
            try OpusFile.write(AudioClip(samples: [0, 0, 0]), to: path)
        }
    }

    @Test func anImpossibleBitrateIsRefusedBeforeTheFileIsMade() throws {
        let path = OpusFixture.scratch("bitrate.opus")
        #expect(throws: AudioFileError.self) {
            try OpusFile.write(AudioClip(samples: [0, 0, 0]), to: path, bitrate: 10)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}

/// Writing onto a full disk (`/dev/full` fails every write with ENOSPC): an error in words, and
/// the writer is freed without closing anything twice (libopusenc's own stdio close crashed).
@Suite struct OpusFullDiskTests {
    @Test func aFullDiskIsAnErrorNotACrash() throws {
        var writer = try OpusFileWriter(path: "/dev/full")
        let second = (0..<48_000).map { Float(sin(Double($0) * 0.05)) * 0.5 }
        var failure: AudioFileError?
        do {
            for _ in 0..<20 { try writer.append(second) }
            try writer.finish()
        } catch {
            failure = error
        }
        let error = try #require(failure, "writing 20 s to /dev/full succeeded")
        #expect("\(error)".contains("No space left on device"), "\(error)")
    }
}
