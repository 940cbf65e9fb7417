public import EarshotSpeech
import Foundation
public import TOMLKit

/// Reads one voice file: TOML whose file name (lower-cased, without `.toml`) is the voice's id.
///
/// ```toml
/// name = "Breeze"                      # required: what the voice UI shows
/// description = "Animated and earnest" # required: one line
/// language = "en-US"                   # required: BCP 47
///
/// [flite]                              # engine sections: at least one
/// voice = "slt"                        # kal, kal16, awb, rms or slt
/// duration_stretch = 1.0               # 0.5...2.5, above 1 is slower
/// f0_mean_hz = 170                     # 50...400
///
/// [espeak-ng]
/// voice = "en-us+f2"
/// rate_wpm = 175                       # 80...450
/// pitch = 55                           # 0...100
///
/// [wyoming]
/// voice = "en_US-amy-medium"
/// speaker = "0"                        # optional
/// ```
///
/// Unknown keys are errors, not ignored, so a misspelt setting does not silently fall back.
public enum VoiceFile {
    static let topLevelKeys = ["name", "description", "language", "flite", "espeak-ng", "wyoming"]
    static let fliteKeys = ["voice", "duration_stretch", "f0_mean_hz"]
    static let espeakKeys = ["voice", "rate_wpm", "pitch"]
    static let wyomingKeys = ["voice", "speaker"]
    /// The voices compiled into Debian's flite.
    public static let fliteVoices = ["kal", "kal16", "awb", "rms", "slt"]

    /// The id a file's voice gets: its name without extension, lower-cased.
    public static func id(forFile path: String) -> String {
        URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent.lowercased()
    }

    /// Reads and parses the file at `path`; problems name the file as `path` is written.
    public static func read(path: String) throws(VoiceFileError) -> Voice {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "not readable UTF-8 text" : "no such file"
            throw VoiceFileError(problems: [VoiceProblem(file: path, kind: .unreadable(reason))])
        }
        return try parse(text, file: path)
    }

    /// Parses the text of a voice file; `file` names it in problems and gives the id.
    public static func parse(_ text: String, file: String) throws(VoiceFileError) -> Voice {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let problem = VoiceProblem(file: file, line: error.source.begin.line, kind: .invalidTOML(error.description))
            throw VoiceFileError(problems: [problem])
        } catch {
            throw VoiceFileError(problems: [VoiceProblem(file: file, kind: .invalidTOML("\(error)"))])
        }
        var reader = TableReader(table: table, section: nil, file: file)
        reader.rejectUnknownKeys(allowed: topLevelKeys)
        let name = reader.requiredText("name")
        let summary = reader.requiredText("description")
        let language = reader.requiredText("language")
        if let language, !LanguageTag.isWellFormed(language) {
            reader.report("language", .outOfRange(allowed: "a BCP 47 tag such as en-US", found: quoted(language)))
        }
        var flite: Voice.Flite?, espeak: Voice.Espeak?, wyoming: Voice.Wyoming?
        if let section = reader.section("flite") { flite = readFlite(section, into: &reader) }
        if let section = reader.section("espeak-ng") { espeak = readEspeak(section, into: &reader) }
        if let section = reader.section("wyoming") { wyoming = readWyoming(section, into: &reader) }
        if !reader.hasSection("flite"), !reader.hasSection("espeak-ng"), !reader.hasSection("wyoming") {
            reader.problems.append(VoiceProblem(file: file, kind: .noEngine))
        }
        guard reader.problems.isEmpty, let name, let summary, let language else {
            throw VoiceFileError(problems: reader.problems)
        }
        return Voice(
            id: id(forFile: file), displayName: name, summary: summary, language: language,
            flite: flite, espeak: espeak, wyoming: wyoming
        )
    }

    private static func readFlite(_ section: TableReader, into reader: inout TableReader) -> Voice.Flite? {
        var section = section
        section.rejectUnknownKeys(allowed: fliteKeys)
        let voice = section.requiredText("voice")
        if let voice, !fliteVoices.contains(voice) {
            section.report("voice", .outOfRange(allowed: "one of \(fliteVoices.joined(separator: ", "))", found: quoted(voice)))
        }
        let stretch = section.number("duration_stretch", in: 0.5...2.5)
        let pitch = section.number("f0_mean_hz", in: 50...400)
        reader.problems += section.problems
        guard section.problems.isEmpty, let voice else { return nil }
        let defaults = Voice.Flite(voice: voice)
        return Voice.Flite(voice: voice, durationStretch: stretch ?? defaults.durationStretch, pitchHz: pitch ?? defaults.pitchHz)
    }

    private static func readEspeak(_ section: TableReader, into reader: inout TableReader) -> Voice.Espeak? {
        var section = section
        section.rejectUnknownKeys(allowed: espeakKeys)
        let voice = section.requiredText("voice")
        let rate = section.integer("rate_wpm", in: 80...450)
        let pitch = section.integer("pitch", in: 0...100)
        reader.problems += section.problems
        guard section.problems.isEmpty, let voice else { return nil }
        let defaults = Voice.Espeak(voice: voice)
        return Voice.Espeak(voice: voice, rate: rate ?? defaults.rate, pitch: pitch ?? defaults.pitch)
    }

    private static func readWyoming(_ section: TableReader, into reader: inout TableReader) -> Voice.Wyoming? {
        var section = section
        section.rejectUnknownKeys(allowed: wyomingKeys)
        let voice = section.requiredText("voice")
        let speaker = section.optionalText("speaker")
        reader.problems += section.problems
        guard section.problems.isEmpty, let voice else { return nil }
        return Voice.Wyoming(voice: voice, speaker: speaker)
    }

    static func quoted(_ text: String) -> String { "\"\(text)\"" }
}

extension VoiceFile {
    /// Reads typed values from one table of a voice file, collecting problems instead of
    /// stopping at the first, so a file's author sees all of them at once.
    struct TableReader {
        let table: TOMLTable
        /// The table's key in the file (`flite`), nil for the top level.
        let section: String?
        let file: String
        var problems: [VoiceProblem] = []

        init(table: TOMLTable, section: String?, file: String) {
            self.table = table
            self.section = section
            self.file = file
        }

        func path(_ key: String) -> String { section.map { "\($0).\(key)" } ?? key }

        mutating func report(_ key: String, _ kind: VoiceProblem.Kind) {
            problems.append(VoiceProblem(file: file, key: path(key), kind: kind))
        }

        mutating func rejectUnknownKeys(allowed: [String]) {
            for key in table.keys.sorted() where !allowed.contains(key) {
                report(key, .unknownKey(known: allowed))
            }
        }

        func hasSection(_ key: String) -> Bool { table[key] != nil }

        /// The sub-table at `key`, or nil when it is absent or not a table (reported).
        mutating func section(_ key: String) -> TableReader? {
            guard let value = table[key] else { return nil }
            guard let subtable = value.table else {
                report(key, .wrongType(expected: "a table", found: value.type.phrase))
                return nil
            }
            return TableReader(table: subtable, section: path(key), file: file)
        }

        /// A non-empty string that must be present.
        mutating func requiredText(_ key: String) -> String? {
            guard table[key] != nil else {
                report(key, .missingKey)
                return nil
            }
            return optionalText(key)
        }

        mutating func optionalText(_ key: String) -> String? {
            guard let value = table[key] else { return nil }
            guard let text = value.string else {
                report(key, .wrongType(expected: "a string", found: value.type.phrase))
                return nil
            }
            guard !text.allSatisfy(\.isWhitespace) else {
                report(key, .empty)
                return nil
            }
            return text
        }

        /// An integer or floating-point value within `range`, if present.
        mutating func number(_ key: String, in range: ClosedRange<Double>) -> Double? {
            guard let value = table[key] else { return nil }
            guard let number = value.double ?? value.int.map(Double.init) else {
                report(key, .wrongType(expected: "a number", found: value.type.phrase))
                return nil
            }
            guard range.contains(number) else {
                let shown = value.int.map(String.init) ?? "\(number)"
                report(key, .outOfRange(allowed: "within \(Self.format(range.lowerBound))...\(Self.format(range.upperBound))", found: shown))
                return nil
            }
            return number
        }

        /// An integer within `range`, if present.
        mutating func integer(_ key: String, in range: ClosedRange<Int>) -> Int? {
            guard let value = table[key] else { return nil }
            guard let integer = value.int else {
                report(key, .wrongType(expected: "an integer", found: value.type.phrase))
                return nil
            }
            guard range.contains(integer) else {
                report(key, .outOfRange(allowed: "within \(range.lowerBound)...\(range.upperBound)", found: "\(integer)"))
                return nil
            }
            return integer
        }

        /// 0.5 as "0.5" and 50 as "50".
        static func format(_ number: Double) -> String {
            number == number.rounded() ? String(Int(number)) : String(number)
        }
    }
}

extension TOMLType {
    /// The type as a message names it: "a string", "an integer".
    public var phrase: String {
        switch self {
        case .table: "a table"
        case .array: "an array"
        case .string: "a string"
        case .int: "an integer"
        case .double: "a floating-point number"
        case .bool: "a boolean"
        case .date: "a date"
        case .time: "a time"
        case .dateTime: "a date-time"
        }
    }
}
