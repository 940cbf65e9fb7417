import EarshotSpeech
import Foundation

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
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory)
            if exists || required {
                let reason = !exists ? "no such directory" : isDirectory.boolValue ? "directory not readable" : "not a directory"
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
