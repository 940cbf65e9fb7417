import EarshotBase
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
    /// The largest file read: a configuration file is a few kilobytes, and a huge one (a log or a
    /// recording saved over it by mistake) must not stall or swell the daemon on SIGHUP.
    public static let maximumBytes = 1 << 20

    /// Reads and parses the file at `path`; nil when there is no such file (the defaults apply).
    /// Problems name the file as `path` is written.
    public static func read(path: String) throws(SettingsFileError) -> Settings? {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        guard !isDirectory else { throw unreadable(path, "it is a directory, not a file") }
        guard FileManager.default.isReadableFile(atPath: path) else { throw unreadable(path, "permission denied") }
        let size = fileSize(path)
        guard size <= maximumBytes else {
            throw unreadable(path, "it is \(size / 1024) KiB, and a configuration file is at most \(maximumBytes / 1024) KiB: is it the right file?")
        }
        let text: String
        do {
            text = try TextFile.read(path, maximumBytes: maximumBytes)
        } catch {
            throw unreadable(path, error.description)
        }
        return try parse(text, file: path)
    }

    /// Parses the text of a configuration file; `file` names it in problems.
    public static func parse(_ text: String, file: String) throws(SettingsFileError) -> Settings {
        let root: TOMLTable
        do {
            root = try TOMLParser.parse(text)
        } catch {
            throw SettingsFileError(problems: [
                SettingsProblem(file: file, position: SourcePosition(error.position), message: "invalid TOML: \(error.message)")
            ])
        }
        var reader = SettingsReader(file: file)
        reader.read(root)
        guard reader.problems.isEmpty else {
            throw SettingsFileError(problems: reader.problems.sorted { ($0.position ?? .end) < ($1.position ?? .end) })
        }
        return reader.settings
    }

    /// The file's size in bytes (0 when it cannot be read, which reading then reports).
    static func fileSize(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }

    private static func unreadable(_ path: String, _ reason: String) -> SettingsFileError {
        SettingsFileError(problems: [SettingsProblem(file: path, message: "cannot read the configuration file: \(reason)")])
    }
}

extension SourcePosition {
    /// After every real position: problems without one sort last.
    fileprivate static let end = SourcePosition(line: .max, column: .max)
}

/// Why a configuration file cannot be used: every problem found in it, in file order.
public struct SettingsFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public var problems: [SettingsProblem]

    public init(problems: [SettingsProblem]) {
        self.problems = problems
    }

    /// One problem per line.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// One thing wrong with a configuration file, worded like a compiler's diagnostic so an editor
/// can jump to it and a person can act on it:
///
///     config.toml:12:1: [listening] end_silence_ms: expected an integer number of milliseconds, got a string ("700")
public struct SettingsProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file, as it was named when read.
    public var file: String
    /// Where in the file, when known (always, except for a file that cannot be read).
    public var position: SourcePosition?
    /// The key at fault, dotted (`listening.end_silence_ms`); nil for the whole file.
    public var keyPath: String?
    /// How the message names what is at fault: `[listening] end_silence_ms`, `[listning]`.
    public var subject: String?
    public var message: String

    public init(file: String, position: SourcePosition? = nil, keyPath: String? = nil, subject: String? = nil, message: String) {
        self.file = file
        self.position = position
        self.keyPath = keyPath
        self.subject = subject
        self.message = message
    }

    public var line: Int? { position?.line }
    public var column: Int? { position?.column }

    public var description: String {
        let place = position.map { "\(file):\($0.line):\($0.column)" } ?? file
        return [place, subject, message].compactMap { $0 }.joined(separator: ": ")
    }
}

/// A place in a text file, both counted from 1 (columns in Unicode scalars).
public struct SourcePosition: Hashable, Sendable, Comparable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    init(_ position: TOMLPosition) {
        self.init(line: position.line, column: position.column)
    }

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

/// Where the configuration file is looked for.
public enum SettingsLocation {
    /// `$XDG_CONFIG_HOME/earshot/config.toml`, or `$HOME/.config/earshot/config.toml` when
    /// `XDG_CONFIG_HOME` is unset, empty or relative (the XDG spec says to ignore it then); nil
    /// without either. A nil `environment` means this process's.
    public static func defaultPath(environment: [String: String]? = nil) -> String? {
        func variable(_ name: String) -> String? {
            environment.map { $0[name] } ?? getenv(name).map { String(cString: $0) }
        }
        if let config = variable("XDG_CONFIG_HOME"), config.hasPrefix("/") {
            return URL(fileURLWithPath: config).appendingPathComponent("earshot/config.toml").path
        }
        guard let home = variable("HOME"), !home.isEmpty else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".config/earshot/config.toml").path
    }
}
