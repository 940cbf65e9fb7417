import Foundation
import TOMLKit

/// Reads Earshot's configuration file (TOML; `config.example.toml` shows every key):
///
/// ```toml
/// [listening]
/// end_silence_ms = 700
///
/// [speech]
/// voice = "sky"
/// ```
///
/// A key left out keeps its default. Unknown sections and keys are errors, not ignored, so a
/// misspelt setting does not silently fall back; every problem in the file is reported at once.
public enum SettingsFile {
    /// Reads and parses the file at `path`; nil when there is no such file (the defaults apply).
    /// Problems name the file as `path` is written.
    public static func read(path: String) throws(SettingsFileError) -> Settings? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        guard !isDirectory.boolValue else { throw unreadable(path, "it is a directory, not a file") }
        guard FileManager.default.isReadableFile(atPath: path) else { throw unreadable(path, "permission denied") }
        guard let data = FileManager.default.contents(atPath: path) else { throw unreadable(path, "reading it failed") }
        guard let text = String(data: data, encoding: .utf8) else { throw unreadable(path, "it is not UTF-8 text") }
        return try parse(text, file: path)
    }

    /// Parses the text of a configuration file; `file` names it in problems.
    public static func parse(_ text: String, file: String) throws(SettingsFileError) -> Settings {
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let position = SourcePosition(line: error.source.begin.line, column: error.source.begin.column)
            throw SettingsFileError(problems: [
                SettingsProblem(file: file, position: position, message: "invalid TOML: \(error.description)")
            ])
        } catch {
            throw SettingsFileError(problems: [SettingsProblem(file: file, message: "invalid TOML: \(error)")])
        }
        var reader = SettingsReader(file: file, positions: TOMLKeyLocator.locate(in: text))
        reader.read(root)
        guard reader.problems.isEmpty else {
            throw SettingsFileError(problems: reader.problems.sorted { ($0.position ?? .end) < ($1.position ?? .end) })
        }
        return reader.settings
    }

    private static func unreadable(_ path: String, _ reason: String) -> SettingsFileError {
        SettingsFileError(problems: [SettingsProblem(file: path, message: "cannot read the configuration file: \(reason)")])
    }
}

extension SourcePosition {
    /// After every real position: problems without one sort last.
    fileprivate static let end = SourcePosition(line: .max, column: .max)
}
