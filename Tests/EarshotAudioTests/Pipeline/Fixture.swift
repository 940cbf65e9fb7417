import EarshotAudio
import Foundation

/// Paths of the fixtures committed under `Tests/Fixtures/`.
enum Fixture {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    static func clip(_ name: String) throws -> AudioClip {
        try WAVFile.read(path(name))
    }

    /// The repository root, where `.build` lives.
    static let repository = directory.deletingLastPathComponent().deletingLastPathComponent()
}
