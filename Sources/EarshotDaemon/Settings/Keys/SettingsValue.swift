import EarshotBase
public import EarshotEngines
import EarshotProtocol
import EarshotServer
import EarshotSpeech

/// One setting's value, as the file or a command-line flag gives it.
public enum SettingsValue: Equatable, Sendable, CustomStringConvertible {
    case text(String)
    case integer(Int)
    case number(Double)
    case flag(Bool)

    /// The value as TOML writes it: `"en-US"`, `600`, `0.5`, `true`.
    public var description: String {
        switch self {
        case .text(let text): Self.quoted(text)
        case .integer(let integer): String(integer)
        case .number(let number): Self.format(number)
        case .flag(let flag): flag ? "true" : "false"
        }
    }

    /// 15 as "15" and 0.5 as "0.5": what a person would type.
    static func format(_ number: Double) -> String {
        if number.isFinite, number == number.rounded(), abs(number) < 1e15 { return String(Int(number)) }
        return String(number)
    }

    /// A TOML basic string: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        TOMLWriter.quoted(text)
    }
}

extension SettingsValue {
    /// The value as if written in the file, to be checked like the file's own.
    public var raw: SettingsRawValue {
        switch self {
        case .text(let text): .string(text)
        case .integer(let integer): .integer(integer)
        case .number(let number): .float(number)
        case .flag(let flag): .boolean(flag)
        }
    }
}

/// A value as it stands in the file, before it is checked against what its key expects.
public enum SettingsRawValue: Equatable, Sendable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    /// A table, an array, a date or a time: named with an article ("an array").
    case other(String)

    /// What it is and, for a scalar, what it says: `a string ("700")`, `an integer (5)`.
    public var described: String {
        switch self {
        case .string: "a string (\(literal))"
        case .integer: "an integer (\(literal))"
        case .float: "a floating-point number (\(literal))"
        case .boolean: "a boolean (\(literal))"
        case .other(let kind): kind
        }
    }

    /// The value as written in TOML; a non-scalar is named instead.
    public var literal: String {
        switch self {
        case .string(let text): SettingsValue.quoted(text)
        case .integer(let integer): String(integer)
        case .float(let number): TOMLWriter.float(number)
        case .boolean(let flag): flag ? "true" : "false"
        case .other(let kind): kind
        }
    }
}

extension SettingsRawValue {
    /// An integer or floating-point value as a number.
    var number: Double? {
        switch self {
        case .integer(let integer): Double(integer)
        case .float(let number): number
        default: nil
        }
    }
}

/// What a key takes, how it is checked, and how a mismatch is worded: every message reads
/// "expected …, got …".
public enum SettingsValueKind: Equatable, Sendable {
    /// A non-empty string: a device name, a path, a command.
    case text
    /// A BCP 47 language tag such as `en-US`.
    case languageTag
    /// `embedded`, `none`, or a Wyoming or OpenAI-compatible server address.
    case backend(BackendChoice.Role)
    /// `true` or `false`.
    case flag
    /// A whole number of milliseconds, 0 to 60 000.
    case milliseconds
    /// A number of seconds above 0, at most an hour.
    case seconds
    /// A number of seconds an engine may stay idle, 0 (never released) to a day.
    case idleSeconds
    /// A number from 0 to 1.
    case probability
    /// A whole number of turns, 0 to 50.
    case turnCount
    /// One of a few words, such as `low`, `medium` or `high`.
    case choice([String])
    /// A loopback address and port: `127.0.0.1:8765`.
    case loopbackAddress
    /// Web origins separated by spaces: `https://chat.example.com http://localhost:3000`.
    case originList
    /// An OpenAI-compatible chat server: `openai+http://HOST:PORT/v1`.
    case chatServer
    /// English words pocketsphinx can pronounce: `hey computer`.
    case wakePhrase
    /// A keyphrase threshold, above 0 and below 1: `1e-35`.
    case keyphraseThreshold
    /// A directory of at least three enrolled takes of the wake phrase.
    case wakeTemplates

    static let millisecondRange = 0...60_000
    static let maximumSeconds = 3600.0
    static let maximumIdleSeconds = 86_400.0
    static let turnCountRange = 0...50

    /// What the key expects, as the messages name it.
    public var expected: String {
        switch self {
        case .text: "a string"
        case .languageTag: "a language tag such as \"en-US\""
        case .backend: "embedded, none, tcp://HOST:PORT, unix:///PATH or openai+http://HOST:PORT/v1"
        case .flag: "true or false"
        case .milliseconds: "an integer number of milliseconds"
        case .seconds: "a number of seconds"
        case .idleSeconds: "a number of seconds from 0 (never) to 86400"
        case .probability: "a number from 0 to 1"
        case .turnCount: "a whole number of turns from 0 to 50"
        case .choice(let words): Self.listed(words.map(SettingsValue.quoted))
        case .loopbackAddress: "a loopback address and port such as \"127.0.0.1:8765\""
        case .originList: "origins separated by spaces, such as \"https://chat.example.com\""
        case .chatServer: "openai+http://HOST:PORT/v1 or openai+https://HOST/v1"
        case .wakePhrase: "English words pocketsphinx can pronounce, such as \"hey computer\""
        case .keyphraseThreshold: "a number above 0 and below 1, such as 1e-35"
        case .wakeTemplates: "a directory of takes of the wake phrase that `earshot wake enroll` wrote"
        }
    }

    /// The value `raw` stands for, or why it does not fit.
    public func check(_ raw: SettingsRawValue) -> Result<SettingsValue, SettingsValueMismatch> {
        switch (self, raw) {
        case (.text, .string(let text)), (.languageTag, .string(let text)), (.backend, .string(let text)):
            return checkText(text)
        case (.loopbackAddress, .string(let text)):
            do {
                _ = try WebListenAddress(parsing: text)
                return .success(.text(text))
            } catch {
                return mismatch("\(expected), got \(SettingsValue.quoted(text)): \(error.reason)")
            }
        case (.chatServer, .string(let text)):
            do {
                _ = try OpenAIEndpoint(parsing: text)
                return .success(.text(text))
            } catch {
                return mismatch("\(expected), got \(SettingsValue.quoted(text)): \(error.reason)")
            }
        case (.originList, .string(let text)):
            do {
                _ = try WebAccess.origins(parsing: text)
                return .success(.text(text))
            } catch {
                return mismatch("\(expected), got \(SettingsValue.quoted(text)): \(error.description)")
            }
        case (.wakePhrase, .string(let text)):
            do {
                _ = try PronouncedWakePhrase(try WakePhrase(text))
                return .success(.text(text))
            } catch {
                return mismatch("\(expected), got \(SettingsValue.quoted(text)): \(error.message)")
            }
        case (.wakeTemplates, .string(let text)):
            // Whether the directory holds takes is checked as the daemon starts or reloads.
            return checkText(text)
        case (.keyphraseThreshold, .integer), (.keyphraseThreshold, .float):
            guard let number = raw.number, number > 0, number < 1 else { return mismatch("\(expected), got \(raw.literal)") }
            return .success(.number(number))
        case (.choice(let words), .string(let text)):
            guard words.contains(text) else { return mismatch("\(expected), got \(SettingsValue.quoted(text))") }
            return .success(.text(text))
        case (.flag, .boolean(let flag)):
            return .success(.flag(flag))
        case (.milliseconds, .integer(let integer)):
            guard Self.millisecondRange.contains(integer) else {
                return mismatch("an integer number of milliseconds from 0 to 60000, got \(integer)")
            }
            return .success(.integer(integer))
        case (.seconds, .integer), (.seconds, .float):
            guard let seconds = raw.number, seconds > 0, seconds <= Self.maximumSeconds else {
                return mismatch("a number of seconds above 0 and at most 3600, got \(raw.literal)")
            }
            return .success(.number(seconds))
        case (.idleSeconds, .integer), (.idleSeconds, .float):
            guard let seconds = raw.number, (0...Self.maximumIdleSeconds).contains(seconds) else {
                return mismatch("\(expected), got \(raw.literal)")
            }
            return .success(.number(seconds))
        case (.turnCount, .integer(let integer)):
            guard Self.turnCountRange.contains(integer) else { return mismatch("\(expected), got \(integer)") }
            return .success(.integer(integer))
        case (.probability, .integer), (.probability, .float):
            guard let number = raw.number, (0...1).contains(number) else { return mismatch("\(expected), got \(raw.literal)") }
            return .success(.number(number))
        default:
            return mismatch("\(expected), got \(raw.described)")
        }
    }

    /// `"low", "medium" or "high"`.
    private static func listed(_ words: [String]) -> String {
        guard let last = words.last, words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + last
    }

    private func checkText(_ text: String) -> Result<SettingsValue, SettingsValueMismatch> {
        guard !text.allSatisfy(\.isWhitespace) else {
            return mismatch("\(expected), got \(SettingsValue.quoted(text)) (leave the key out for the default)")
        }
        switch self {
        case .languageTag where !LanguageTag.isWellFormed(text):
            return mismatch("\(expected), got \(SettingsValue.quoted(text))")
        case .backend(let role):
            do {
                _ = try BackendChoice(parsing: text, role: role)
            } catch {
                switch error.problem {
                case .notABackend: return mismatch("\(expected), got \(SettingsValue.quoted(text))")
                case .wyomingAddress(let address):
                    return mismatch(
                        "a Wyoming server address (tcp://HOST:PORT or unix:///PATH), got \(SettingsValue.quoted(text)): \(address.reason)"
                    )
                case .openAIAddress(let address):
                    return mismatch(
                        "an OpenAI-compatible server address (openai+http://HOST:PORT/v1), got \(SettingsValue.quoted(text)): \(address.reason)"
                    )
                }
            }
        default: break
        }
        return .success(.text(text))
    }

    private func mismatch(_ expectation: String) -> Result<SettingsValue, SettingsValueMismatch> {
        .failure(SettingsValueMismatch(message: "expected " + expectation))
    }
}

/// Why a value does not fit its key: "expected …, got …".
public struct SettingsValueMismatch: Error, Equatable, Sendable {
    public var message: String
}
