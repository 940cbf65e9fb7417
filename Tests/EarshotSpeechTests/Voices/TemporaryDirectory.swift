import Foundation

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("earshot-voices-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: path + "/" + name, atomically: true, encoding: .utf8)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
