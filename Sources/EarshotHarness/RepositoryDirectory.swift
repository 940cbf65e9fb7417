public import Foundation

/// The repository's top directory, found from this file's path: the harness runs peers and
/// scripts kept in the repository (`Tests/Peers/`, the package's `.venv`).
public enum RepositoryDirectory {
    public static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The path of `relative` (e.g. "Tests/Peers/openai_speech_server.py") in the repository.
    public static func path(_ relative: String) -> String {
        url.appendingPathComponent(relative).path
    }
}
