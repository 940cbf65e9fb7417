import Foundation
import Testing

/// One row of the configuration-problem table: a change to a valid file and the exact lines
/// it must be refused with.
struct SettingsFileCase: CustomTestStringConvertible, Sendable {
    static let file = "config.toml"

    /// A valid file that sets a key of every section; rows replace one of its lines.
    static let valid = """
        # My Earshot
        [audio]
        source = "mic"
        cues = true

        [listening]
        vad_threshold = 0.6
        end_silence_ms = 700

        [transcription]
        backend = "tcp://127.0.0.1:10300"
        language = "de-DE"

        [speech]
        voice = "sky"

        [replies]
        timeout = 20
        responder = "cat"

        [daemon]
        listen = true

        """

    let name: String
    let text: String
    let messages: [String]

    /// Replaces the line `old` of the valid file by `new`.
    init(_ name: String, replacing old: String, with new: String, _ messages: [String]) {
        self.init(name, replacing: [(old, new)], messages)
    }

    init(_ name: String, replacing lines: [(String, String)], _ messages: [String]) {
        var text = Self.valid
        for (old, new) in lines {
            precondition(text.contains(old + "\n"), "no line \(old)")
            text = text.replacingOccurrences(of: old + "\n", with: new + "\n")
        }
        self.name = name
        self.text = text
        self.messages = messages
    }

    var testDescription: String { name }

    static let table: [SettingsFileCase] = [
        .init("wrong type", replacing: "end_silence_ms = 700", with: #"end_silence_ms = "700""#, [
            #"config.toml:8:1: [listening] end_silence_ms: expected an integer number of milliseconds, got a string ("700")"#,
        ]),
        .init("a fraction of a millisecond", replacing: "end_silence_ms = 700", with: "end_silence_ms = 700.5", [
            "config.toml:8:1: [listening] end_silence_ms: expected an integer number of milliseconds, got a floating-point number (700.5)",
        ]),
        .init("unknown key", replacing: "end_silence_ms = 700", with: "end_silence = 700", [
            "config.toml:8:1: [listening] end_silence: unknown key; did you mean end_silence_ms?",
        ]),
        .init("unknown key, nothing close", replacing: "end_silence_ms = 700", with: "frobnicate = 1", [
            "config.toml:8:1: [listening] frobnicate: unknown key (the keys of [listening] are vad_threshold, prefix_padding_ms, min_speech_ms, end_silence_ms, finished_silence_ms, max_end_silence_ms, eagerness)",
        ]),
        .init("a key in the wrong section", replacing: "cues = true", with: "vad_threshold = 0.5", [
            "config.toml:4:1: [audio] vad_threshold: unknown key in [audio]; did you mean [listening] vad_threshold?",
        ]),
        .init("unknown section", replacing: "[listening]", with: "[listning]", [
            "config.toml:6:1: [listning]: unknown section; did you mean [listening]?",
        ]),
        .init("a key outside any section", replacing: "# My Earshot", with: "verbose = true", [
            "config.toml:1:1: verbose: unknown key outside any section (settings go in the sections [audio], [listening], [transcription], [speech], [replies], [assistant], [wake], [daemon], [web], [privacy])",
        ]),
        .init("a known key outside its section", replacing: "# My Earshot", with: "end_silence_ms = 700", [
            "config.toml:1:1: end_silence_ms: unknown key outside any section; did you mean [listening] end_silence_ms?",
        ]),
        .init("probability out of range", replacing: "vad_threshold = 0.6", with: "vad_threshold = 1.5", [
            "config.toml:7:1: [listening] vad_threshold: expected a number from 0 to 1, got 1.5",
        ]),
        .init("milliseconds out of range", replacing: "end_silence_ms = 700", with: "end_silence_ms = 90000", [
            "config.toml:8:1: [listening] end_silence_ms: expected an integer number of milliseconds from 0 to 60000, got 90000",
        ]),
        .init("no time at all", replacing: "timeout = 20", with: "timeout = 0", [
            "config.toml:18:1: [replies] timeout: expected a number of seconds above 0 and at most 3600, got 0",
        ]),
        .init("an eagerness that is not one of the three", replacing: "end_silence_ms = 700", with: #"eagerness = "eager""#, [
            #"config.toml:8:1: [listening] eagerness: expected "low", "medium" or "high", got "eager""#,
        ]),
        .init("an eagerness as a number", replacing: "end_silence_ms = 700", with: "eagerness = 2", [
            #"config.toml:8:1: [listening] eagerness: expected "low", "medium" or "high", got an integer (2)"#,
        ]),
        .init("a flag spelt as a word", replacing: "cues = true", with: #"cues = "yes""#, [
            #"config.toml:4:1: [audio] cues: expected true or false, got a string ("yes")"#,
        ]),
        .init("no such backend", replacing: #"backend = "tcp://127.0.0.1:10300""#, with: #"backend = "whisper""#, [
            #"config.toml:11:1: [transcription] backend: expected embedded, none, tcp://HOST:PORT, unix:///PATH or openai+http://HOST:PORT/v1, got "whisper""#,
        ]),
        .init("a server address without a port", replacing: #"backend = "tcp://127.0.0.1:10300""#, with: #"backend = "tcp://127.0.0.1""#, [
            #"config.toml:11:1: [transcription] backend: expected a Wyoming server address (tcp://HOST:PORT or unix:///PATH), got "tcp://127.0.0.1": it has no port"#,
        ]),
        .init("not a language tag", replacing: #"language = "de-DE""#, with: #"language = "German""#, [
            #"config.toml:12:1: [transcription] language: expected a language tag such as "en-US", got "German""#,
        ]),
        .init("an idle time below zero", replacing: #"language = "de-DE""#, with: "unload_after = -1", [
            "config.toml:12:1: [transcription] unload_after: expected a number of seconds from 0 (never) to 86400, got -1",
        ]),
        .init("an idle time longer than a day", replacing: #"voice = "sky""#, with: "unload_after = 90000.5", [
            "config.toml:15:1: [speech] unload_after: expected a number of seconds from 0 (never) to 86400, got 90000.5",
        ]),
        .init("an idle time in words", replacing: #"voice = "sky""#, with: #"unload_after = "never""#, [
            #"config.toml:15:1: [speech] unload_after: expected a number of seconds from 0 (never) to 86400, got a string ("never")"#,
        ]),
        .init("an empty device name", replacing: #"source = "mic""#, with: #"source = """#, [
            #"config.toml:3:1: [audio] source: expected a string, got "" (leave the key out for the default)"#,
        ]),
        .init("an indented key", replacing: "end_silence_ms = 700", with: #"   end_silence_ms = "700""#, [
            #"config.toml:8:4: [listening] end_silence_ms: expected an integer number of milliseconds, got a string ("700")"#,
        ]),
        .init("a section that is not a table", replacing: [("[daemon]", "[other]"), ("# My Earshot", "daemon = 5")], [
            "config.toml:1:1: daemon: expected a table ([daemon]), got an integer (5)",
            "config.toml:21:1: [other]: unknown section (the sections are [audio], [listening], [transcription], [speech], [replies], [assistant], [wake], [daemon], [web], [privacy])",
        ]),
        .init("every problem, in file order", replacing: [("voice = \"sky\"", "voice = 3"), ("cues = true", "cues = 1")], [
            "config.toml:4:1: [audio] cues: expected true or false, got an integer (1)",
            "config.toml:15:1: [speech] voice: expected a string, got an integer (3)",
        ]),
    ]
}

/// A fresh directory under the system's temporary directory for configuration files, removed
/// by `remove()`.
struct SettingsScratchDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("earshot-settings-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes `text` to `name` in the directory; returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true
        )
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
