import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The voices Earshot can speak in: the bundled files, overridden and extended by the user's.
///
/// Loading never fails as a whole: a file that cannot be used is listed in `problems` and the
/// others load. A user's file whose id matches a bundled one replaces it; an invalid user file
/// leaves the bundled voice in place.
public struct VoiceCatalog: Sendable {
    /// The voice used when none is chosen (or the chosen one is missing).
    public static let defaultVoiceID = "breeze"

    /// Every usable voice, sorted by id.
    public private(set) var voices: [Voice]
    /// What could not be loaded, in the order found (bundled directory first).
    public private(set) var problems: [VoiceProblem]

    public init(voices: [Voice], problems: [VoiceProblem] = []) {
        var byID: [String: Voice] = [:]
        for voice in voices { byID[voice.id.lowercased()] = voice }
        self.voices = byID.values.sorted { $0.id < $1.id }
        self.problems = problems
    }

    /// The voice whose id (case-insensitively) or else display name (likewise) is `name`.
    public func voice(named name: String) -> Voice? {
        let wanted = name.lowercased()
        return voices.first { $0.id.lowercased() == wanted }
            ?? voices.first { $0.displayName.lowercased() == wanted }
    }

    /// Breeze when it loaded, otherwise the first voice by id.
    public var defaultVoice: Voice? {
        voice(named: Self.defaultVoiceID) ?? voices.first
    }
}

extension VoiceCatalog {
    /// Loads the `*.toml` files of both directories; the user's win on equal ids.
    ///
    /// A missing bundled directory is a problem; a missing user directory is not (most users
    /// have none). Hidden files (editor backups such as `.sky.toml.swp`) are skipped.
    public static func load(bundledDirectory: String?, userDirectory: String?) -> VoiceCatalog {
        var problems: [VoiceProblem] = []
        var voices: [String: Voice] = [:]
        if let bundledDirectory {
            for voice in loadDirectory(bundledDirectory, required: true, problems: &problems) {
                voices[voice.id] = voice
            }
        }
        if let userDirectory {
            for voice in loadDirectory(userDirectory, required: false, problems: &problems) {
                voices[voice.id] = voice
            }
        }
        return VoiceCatalog(voices: Array(voices.values), problems: problems)
    }

    /// Loads the bundled voices (found by `bundledDirectory(explicit:)`) and the user's
    /// (`userDirectory(environment:)`; nil `environment` means this process's).
    public static func load(explicitBundledDirectory: String? = nil, environment: [String: String]? = nil) -> VoiceCatalog {
        let bundled = bundledDirectory(explicit: explicitBundledDirectory)
        let catalog = load(bundledDirectory: bundled, userDirectory: userDirectory(environment: environment))
        guard bundled == nil else { return catalog }
        let reason = "not found (looked for ../share/earshot/voices beside the executable and voices/ in the source checkout)"
        let missing = VoiceProblem(file: "voices", kind: .unreadable(reason))
        return VoiceCatalog(voices: catalog.voices, problems: [missing] + catalog.problems)
    }

    private static func loadDirectory(_ directory: String, required: Bool, problems: inout [VoiceProblem]) -> [Voice] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            var isDirectory = false
            let exists = FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory)
            if exists || required {
                let reason = !exists ? "no such directory" : isDirectory ? "directory not readable" : "not a directory"
                problems.append(VoiceProblem(file: directory, kind: .unreadable(reason)))
            }
            return []
        }
        var voices: [Voice] = []
        var fileOfID: [String: String] = [:]
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        for name in names.sorted() where name.hasSuffix(".toml") && !name.hasPrefix(".") {
            let path = base + name
            let id = VoiceFile.id(forFile: name)
            if let other = fileOfID[id] {
                problems.append(VoiceProblem(file: path, kind: .duplicate(of: other)))
                continue
            }
            do {
                voices.append(try VoiceFile.read(path: path))
                fileOfID[id] = path
            } catch {
                problems += error.problems
            }
        }
        return voices
    }
}

extension VoiceCatalog {
    /// Where the bundled voice files are: `explicit` when given (used as is, so a wrong path
    /// is reported when loading), else `../share/earshot/voices` beside the running executable
    /// (an installed Earshot: `/usr/bin/earshotd` → `/usr/share/earshot/voices`), else the
    /// `voices/` directory of the source checkout this file was compiled from (a development
    /// build run from `.build/`). Nil when neither exists.
    public static func bundledDirectory(explicit: String? = nil, executablePath: String? = nil) -> String? {
        if let explicit { return explicit }
        // Without a path, the kernel's link to this process's executable (links already followed).
        let path = executablePath ?? (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        if let executable = path.map({ URL(fileURLWithPath: $0) }) {
            let installed = executable.resolvingSymlinksInPath().deletingLastPathComponent()
                .appendingPathComponent("../share/earshot/voices").standardizedFileURL.path
            if isDirectory(installed) { return installed }
        }
        return isDirectory(checkoutDirectory) ? checkoutDirectory : nil
    }

    /// `voices/` at the root of the source checkout: this file is `Sources/EarshotSpeech/Voices/…`.
    static let checkoutDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("voices").path

    /// `$XDG_CONFIG_HOME/earshot/voices`, or `$HOME/.config/earshot/voices` when
    /// `XDG_CONFIG_HOME` is unset, empty or relative (as the XDG spec says to ignore it);
    /// nil without either. A nil `environment` means this process's.
    public static func userDirectory(environment: [String: String]? = nil) -> String? {
        func variable(_ name: String) -> String? {
            environment.map { $0[name] } ?? getenv(name).map { String(cString: $0) }
        }
        if let config = variable("XDG_CONFIG_HOME"), config.hasPrefix("/") {
            return URL(fileURLWithPath: config).appendingPathComponent("earshot/voices").path
        }
        guard let home = variable("HOME"), !home.isEmpty else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".config/earshot/voices").path
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory
    }
}
