import Foundation

/// The text of the file at `path` (a log, a child's output), or "" when it cannot be read.
///
/// Through FileHandle, not `String(contentsOfFile:)`: swift-foundation leaks 4 KiB on every read
/// of an empty file, and LeakSanitizer (`make sanitize`) reports each one.
public func fileText(_ path: String) -> String {
    guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
    defer { try? handle.close() }
    guard let data = try? handle.readToEnd() else { return "" }
    return String(decoding: data, as: UTF8.self)
}
