import EarshotAudio
import Foundation

/// A clip from `Tests/Fixtures/endpointer/` with its labelled speech segments.
struct EndpointerFixture {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/endpointer")

    let clip: AudioClip
    /// Labelled speech as frame ranges (end exclusive).
    let segments: [Range<Int>]

    init(_ name: String) throws {
        clip = try WAVFile.read(Self.directory.appendingPathComponent("\(name).wav").path)
        let json = try Data(contentsOf: Self.directory.appendingPathComponent("\(name).json"))
        let labels = try JSONDecoder().decode(EndpointerFixtureLabels.self, from: json)
        segments = labels.segments.map { Self.frame($0.start)..<Self.frame($0.end) }
    }

    private static func frame(_ seconds: Double) -> Int { Int((seconds / AudioFrame.duration).rounded()) }
}
