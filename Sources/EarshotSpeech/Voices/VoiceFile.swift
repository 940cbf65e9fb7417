import EarshotBase
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

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
///
/// [openai]                             # an OpenAI-compatible server (audio/speech)
/// voice = "nova"
/// model = "tts-1"                      # optional, tts-1 when left out
/// sample_rate = 24000                  # optional: the rate of the server's pcm audio
/// ```
///
/// Unknown keys are errors, not ignored, so a misspelt setting does not silently fall back.
public enum VoiceFile {
    static let topLevelKeys = ["name", "description", "language", "flite", "espeak-ng", "wyoming", "openai"]
    static let fliteKeys = ["voice", "duration_stretch", "f0_mean_hz"]
    static let espeakKeys = ["voice", "rate_wpm", "pitch"]
    static let wyomingKeys = ["voice", "speaker"]
    static let openAIKeys = ["voice", "model", "sample_rate"]
    /// The largest voice file read: one is a few hundred bytes, and a huge file in the voices
    /// directory must not stall the daemon's start.
    static let maximumBytes = 64 * 1024
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
            text = try TextFile.read(path, maximumBytes: maximumBytes)
        } catch {
            let reason =
                switch error {
                case .missing: "no such file"
                case .tooLarge(let bytes, _): "\(bytes / 1024) KiB, larger than a voice file can be (64 KiB)"
                default: "not readable UTF-8 text"
                }
            throw VoiceFileError(problems: [VoiceProblem(file: path, kind: .unreadable(reason))])
        }
        return try parse(text, file: path)
    }

    /// Parses the text of a voice file; `file` names it in problems and gives the id.
    public static func parse(_ text: String, file: String) throws(VoiceFileError) -> Voice {
        let table: TOMLTable
        do {
            table = try TOMLParser.parse(text)
        } catch {
            throw VoiceFileError(problems: [VoiceProblem(file: file, line: error.line, kind: .invalidTOML(error.message))])
        }
        var reader = TOMLTableReader(table) { VoiceProblem(file: file, key: $0.keyPath, kind: VoiceProblem.Kind($0.kind)) }
        reader.rejectUnknownKeys(allowed: topLevelKeys)
        let name = reader.text("name", required: true)
        let summary = reader.text("description", required: true)
        let language = reader.text("language", required: true)
        if let language, !LanguageTag.isWellFormed(language) {
            reader.report("language", .outOfRange(allowed: "a BCP 47 tag such as en-US", found: quoted(language)))
        }
        var flite: Voice.Flite?, espeak: Voice.Espeak?, wyoming: Voice.Wyoming?, openAI: Voice.OpenAI?
        if let section = reader.section("flite") { flite = readFlite(section, into: &reader) }
        if let section = reader.section("espeak-ng") { espeak = readEspeak(section, into: &reader) }
        if let section = reader.section("wyoming") { wyoming = readWyoming(section, into: &reader) }
        if let section = reader.section("openai") { openAI = readOpenAI(section, into: &reader) }
        if !["flite", "espeak-ng", "wyoming", "openai"].contains(where: reader.has) {
            reader.problems.append(VoiceProblem(file: file, kind: .noEngine))
        }
        guard reader.problems.isEmpty, let name, let summary, let language else {
            throw VoiceFileError(problems: reader.problems)
        }
        return Voice(
            id: id(forFile: file), displayName: name, summary: summary, language: language,
            flite: flite, espeak: espeak, wyoming: wyoming, openAI: openAI
        )
    }

    private static func readFlite(_ section: VoiceTableReader, into reader: inout VoiceTableReader) -> Voice.Flite? {
        var section = section
        section.rejectUnknownKeys(allowed: fliteKeys)
        let voice = section.text("voice", required: true)
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

    private static func readEspeak(_ section: VoiceTableReader, into reader: inout VoiceTableReader) -> Voice.Espeak? {
        var section = section
        section.rejectUnknownKeys(allowed: espeakKeys)
        let voice = section.text("voice", required: true)
        let rate = section.integer("rate_wpm", in: 80...450)
        let pitch = section.integer("pitch", in: 0...100)
        reader.problems += section.problems
        guard section.problems.isEmpty, let voice else { return nil }
        let defaults = Voice.Espeak(voice: voice)
        return Voice.Espeak(voice: voice, rate: rate ?? defaults.rate, pitch: pitch ?? defaults.pitch)
    }

    private static func readWyoming(_ section: VoiceTableReader, into reader: inout VoiceTableReader) -> Voice.Wyoming? {
        var section = section
        section.rejectUnknownKeys(allowed: wyomingKeys)
        let voice = section.text("voice", required: true)
        let speaker = section.text("speaker")
        reader.problems += section.problems
        guard section.problems.isEmpty, let voice else { return nil }
        return Voice.Wyoming(voice: voice, speaker: speaker)
    }

    private static func readOpenAI(_ section: VoiceTableReader, into reader: inout VoiceTableReader) -> Voice.OpenAI? {
        var section = section
        section.rejectUnknownKeys(allowed: openAIKeys)
        let voice = section.text("voice", required: true)
        let model = section.text("model")
        let sampleRate = section.integer("sample_rate", in: 8000...48_000)
        reader.problems += section.problems
        guard section.problems.isEmpty, let voice else { return nil }
        return Voice.OpenAI(
            voice: voice, model: model ?? Voice.OpenAI.defaultModel, sampleRate: sampleRate ?? Voice.OpenAI.defaultSampleRate
        )
    }

    static func quoted(_ text: String) -> String { "\"\(text)\"" }
}

/// Reads one table of a voice file, collecting every problem instead of stopping at the first,
/// so a file's author sees all of them at once.
typealias VoiceTableReader = TOMLTableReader<VoiceProblem>

extension VoiceProblem.Kind {
    /// A problem with a value, as the table reader found it.
    init(_ kind: TOMLTableProblem.Kind) {
        switch kind {
        case .missingKey: self = .missingKey
        case .unknownKey(let known): self = .unknownKey(known: known)
        case .wrongType(let expected, let found): self = .wrongType(expected: expected, found: found)
        case .outOfRange(let allowed, let found): self = .outOfRange(allowed: allowed, found: found)
        case .empty: self = .empty
        }
    }
}
