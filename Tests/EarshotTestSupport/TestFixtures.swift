public import Foundation

/// Paths of the fixtures committed under `Tests/Fixtures/`.
public enum TestFixtures {
    public static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    public static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }
}
