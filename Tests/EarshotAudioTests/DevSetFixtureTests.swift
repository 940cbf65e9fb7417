import EarshotAudio
import Foundation
import Testing

/// Reads a scene of the VAD dev set, as copied unchanged into `Tests/Fixtures/vad`.
@Suite struct DevSetFixtureTests {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/vad/dev_s07_clean.wav").path

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
