import EarshotAudio
import Foundation

/// Fixture paths, scratch files and the pipeline's speech events, shared by the Opus tests.
enum OpusFixture {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// A path in the temporary directory unique to this call, so tests running in parallel never share one.
    static func scratch(_ name: String) -> String {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("earshot-opus-\(UUID().uuidString)-\(name)").path
    }

    /// The speech boundaries the pipeline finds in `clip`: (turn, audio start or nil, time).
    static func speechEvents(_ clip: AudioClip) -> [(turn: Int, audioStart: Double?, time: Double)] {
        var pipeline = VoicePipeline(detector: SpectralVAD(), configuration: .init())
        var events: [PipelineEvent] = []
        for frame in clip.frames { pipeline.process(frame) { events.append($0) } }
        pipeline.finish { events.append($0) }
        return events.compactMap { event in
            switch event {
            case .speechStarted(let turn, let audioStart, let time): (turn, audioStart, time)
            case .speechEnded(let turn, _, let time): (turn, nil, time)
            default: nil
            }
        }
    }
}
