import Foundation
import Testing

/// One row of the voice-file error table: a change to a valid file and the message it must give.
struct VoiceFileCase: CustomTestStringConvertible, Sendable {
    static let file = "voices/sky.toml"

    /// A valid file; rows replace one of its lines or add lines.
    static let valid = """
        name = "Sky"
        description = "Bright and inquisitive"
        language = "en-US"

        [flite]
        voice = "slt"
        duration_stretch = 0.9
        f0_mean_hz = 208

        [espeak-ng]
        voice = "en-us+f4"
        rate_wpm = 188
        pitch = 72

        [wyoming]
        voice = "en_US-lessac-medium"

        """

    let name: String
    let text: String
    let messages: [String]

    /// Replaces the line `old` of the valid file by `new` (nil removes it).
    init(_ name: String, replacing old: String, with new: String?, _ messages: [String]) {
        precondition(Self.valid.contains(old + "\n"), "no line \(old)")
        self.name = name
        text = Self.valid.replacingOccurrences(of: old + "\n", with: new.map { $0 + "\n" } ?? "")
        self.messages = messages
    }

    init(_ name: String, text: String, _ messages: [String]) {
        self.name = name
        self.text = text
        self.messages = messages
    }

    var testDescription: String { name }

    static let table: [VoiceFileCase] = [
        .init("misspelt key", replacing: "f0_mean_hz = 208", with: "pich = 208", [
            "voices/sky.toml: unknown key `flite.pich` (known: voice, duration_stretch, f0_mean_hz)",
        ]),
        .init("unknown top-level key", replacing: "language = \"en-US\"", with: "language = \"en-US\"\ncolour = \"blue\"", [
            "voices/sky.toml: unknown key `colour` (known: name, description, language, flite, espeak-ng, wyoming, openai)",
        ]),
        .init("missing name", replacing: "name = \"Sky\"", with: nil, ["voices/sky.toml: missing required key `name`"]),
        .init("missing description", replacing: "description = \"Bright and inquisitive\"", with: nil, [
            "voices/sky.toml: missing required key `description`",
        ]),
        .init("missing language", replacing: "language = \"en-US\"", with: nil, ["voices/sky.toml: missing required key `language`"]),
        .init("missing engine voice", replacing: "voice = \"en_US-lessac-medium\"", with: "speaker = \"2\"", [
            "voices/sky.toml: missing required key `wyoming.voice`",
        ]),
        .init("string for an integer", replacing: "rate_wpm = 188", with: "rate_wpm = \"fast\"", [
            "voices/sky.toml: `espeak-ng.rate_wpm` must be an integer, not a string",
        ]),
        .init("fraction for an integer", replacing: "pitch = 72", with: "pitch = 72.5", [
            "voices/sky.toml: `espeak-ng.pitch` must be an integer, not a floating-point number",
        ]),
        .init("boolean for a number", replacing: "duration_stretch = 0.9", with: "duration_stretch = true", [
            "voices/sky.toml: `flite.duration_stretch` must be a number, not a boolean",
        ]),
        .init("number for a string", replacing: "name = \"Sky\"", with: "name = 7", [
            "voices/sky.toml: `name` must be a string, not an integer",
        ]),
        .init("string for a section", text: "name = \"Sky\"\ndescription = \"B\"\nlanguage = \"en-US\"\nwyoming = \"amy\"\n[flite]\nvoice = \"slt\"\n", [
            "voices/sky.toml: `wyoming` must be a table, not a string",
        ]),
        .init("unknown flite voice", replacing: "voice = \"slt\"", with: "voice = \"kal32\"", [
            "voices/sky.toml: `flite.voice` must be one of kal, kal16, awb, rms, slt, not \"kal32\"",
        ]),
        .init("rate too fast", replacing: "rate_wpm = 188", with: "rate_wpm = 500", [
            "voices/sky.toml: `espeak-ng.rate_wpm` must be within 80...450, not 500",
        ]),
        .init("rate too slow", replacing: "rate_wpm = 188", with: "rate_wpm = 79", [
            "voices/sky.toml: `espeak-ng.rate_wpm` must be within 80...450, not 79",
        ]),
        .init("pitch too high", replacing: "pitch = 72", with: "pitch = 101", [
            "voices/sky.toml: `espeak-ng.pitch` must be within 0...100, not 101",
        ]),
        .init("stretch too long", replacing: "duration_stretch = 0.9", with: "duration_stretch = 3", [
            "voices/sky.toml: `flite.duration_stretch` must be within 0.5...2.5, not 3",
        ]),
        .init("stretch too short", replacing: "duration_stretch = 0.9", with: "duration_stretch = 0.45", [
            "voices/sky.toml: `flite.duration_stretch` must be within 0.5...2.5, not 0.45",
        ]),
        .init("f0 too low", replacing: "f0_mean_hz = 208", with: "f0_mean_hz = 20", [
            "voices/sky.toml: `flite.f0_mean_hz` must be within 50...400, not 20",
        ]),
        .init("empty name", replacing: "name = \"Sky\"", with: "name = \"  \"", ["voices/sky.toml: `name` must not be empty"]),
        .init("bad language tag", replacing: "language = \"en-US\"", with: "language = \"English\"", [
            "voices/sky.toml: `language` must be a BCP 47 tag such as en-US, not \"English\"",
        ]),
        .init("no engine", text: "name = \"Sky\"\ndescription = \"Bright\"\nlanguage = \"en-US\"\n", [
            "voices/sky.toml: no engine section: add at least one of [flite], [espeak-ng], [wyoming], [openai]",
        ]),
        .init("every problem at once", text: "name = \"Sky\"\nlanguage = \"en\"\n[flite]\nvoice = \"x\"\nspeed = 2\n", [
            "voices/sky.toml: missing required key `description`",
            "voices/sky.toml: unknown key `flite.speed` (known: voice, duration_stretch, f0_mean_hz)",
            "voices/sky.toml: `flite.voice` must be one of kal, kal16, awb, rms, slt, not \"x\"",
        ]),
    ]
}
