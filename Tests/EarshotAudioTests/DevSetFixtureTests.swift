import Foundation
import Testing
import EarshotAudio

private let devSetRecording = "/work/shared/fixtures/vad-dev/dev_s01_clean.wav"

/// Reads a real recording from the shared VAD dev set, when this machine has it.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: devSetRecording), "the VAD dev set is not on this machine"))
struct DevSetFixtureTests {
    static let path = devSetRecording

    @Test func cleanSceneDecodes() throws {
        let clip = try WAVFile.read(Self.path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.path))
        let header = try WAVFile.format(of: bytes, path: Self.path)
        #expect(header.format == WAVFormat(sampleRate: 16_000, channels: 1, encoding: .signed16))
        #expect(clip.samples.count == header.frameCount)
        #expect(clip.samples == (try WAVFile.decodeMono(bytes, path: Self.path)).samples)
        // The dev set is built with 10 ms granularity and peaks kept at or below 0.89.
        #expect(clip.samples.count % AudioFrame.sampleCount == 0)
        #expect(clip.samples.allSatisfy { abs($0) <= 0.9 })
        #expect(clip.samples.contains { $0 != 0 })
    }
}
