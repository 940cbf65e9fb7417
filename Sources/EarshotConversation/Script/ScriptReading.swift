public import EarshotSpeech
import Foundation
import TOMLKit
import EarshotVoices

extension ConversationScript {
    static let topLevelKeys = ["voice", "echo_gain", "echo_delay_ms", "reply"]
    static let replyKeys = ["after_turn", "delay_ms", "at", "text", "voice"]

    /// Reads and parses the script at `path`; problems name the file as `path` is written.
    /// Voices are looked up in `voices` by id or name; replies without one use `defaultVoice`.
    public static func read(path: String, voices: [Voice], defaultVoice: Voice?) throws(ConversationScriptError) -> ConversationScript {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "it is not readable UTF-8 text" : "there is no such file"
            throw ConversationScriptError(problems: [ScriptProblem(file: path, message: "cannot read the conversation script: \(reason)")])
        }
        return try parse(text, file: path, voices: voices, defaultVoice: defaultVoice)
    }

    /// Parses the text of a script; `file` names it in problems.
    public static func parse(
        _ text: String, file: String, voices: [Voice], defaultVoice: Voice?
    ) throws(ConversationScriptError) -> ConversationScript {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConversationScriptError(problems: [
                ScriptProblem(file: file, line: error.source.begin.line, message: "invalid TOML: \(error.description)")
            ])
        } catch {
            throw ConversationScriptError(problems: [ScriptProblem(file: file, message: "invalid TOML: \(error)")])
        }
        let lines = ScriptLines(text)
        var top = ScriptTableReader(table: table, reply: nil, file: file, lines: lines)
        top.rejectUnknownKeys(allowed: topLevelKeys)
        var scriptVoice = defaultVoice
        if let name = top.text("voice", required: false) {
            scriptVoice = voice(named: name, in: voices, reader: &top)
        }
        let echoGain = top.number("echo_gain", in: 0...1, expected: "a gain from 0 (no echo) to 1 (as loud as played)") ?? 0
        let echoDelay = top.integer("echo_delay_ms", in: 10...300, expected: "milliseconds from 10 to 300") ?? 50
        var problems = top.problems
        var replies: [ScriptedReply] = []
        if let value = table["reply"] {
            if let array = value.array {
                var answered: [Int: Int] = [:]
                for (offset, element) in array.enumerated() {
                    let number = offset + 1
                    guard let replyTable = element.table else {
                        problems.append(ScriptProblem(
                            file: file, line: lines.line(of: "reply", inReply: nil), key: "reply",
                            message: "`reply` must hold tables: write each reply under its own [[reply]] header"
                        ))
                        break
                    }
                    var reader = ScriptTableReader(table: replyTable, reply: number, file: file, lines: lines)
                    let reply = readReply(&reader, voices: voices, scriptVoice: scriptVoice, scriptNamesVoice: top.has("voice"))
                    if let reply, let turn = reply.turn {
                        if let earlier = answered[turn] {
                            reader.report("after_turn", "turn \(turn) already has a reply (reply \(earlier)); a turn gets one reply")
                        } else {
                            answered[turn] = number
                        }
                    }
                    problems += reader.problems
                    if let reply, reader.problems.isEmpty { replies.append(reply) }
                }
            } else {
                problems.append(ScriptProblem(
                    file: file, line: lines.line(of: "reply", inReply: nil), key: "reply",
                    message: "`reply` must be an array of tables: write each reply under its own [[reply]] header, not [reply]"
                ))
            }
        }
        guard problems.isEmpty else { throw ConversationScriptError(problems: problems) }
        return ConversationScript(file: file, replies: replies, echoGain: echoGain, echoDelayMilliseconds: echoDelay)
    }

    /// One `[[reply]]`; `scriptNamesVoice` says the top of the file names a voice (whose
    /// problem, if it has one, is reported there).
    private static func readReply(
        _ reader: inout ScriptTableReader, voices: [Voice], scriptVoice: Voice?, scriptNamesVoice: Bool
    ) -> ScriptedReply? {
        reader.rejectUnknownKeys(allowed: replyKeys)
        let text = reader.text("text", required: true)
        let turn = reader.integer("after_turn", in: 1...Int(Int32.max), expected: "the number of the person's turn it answers, from 1 up")
        let delay = reader.integer("delay_ms", in: 0...60_000, expected: "milliseconds from 0 to 60000")
        let at = reader.number("at", in: 0...86_400, expected: "seconds of audio time, 0 or more")
        var voice = scriptVoice
        if let name = reader.text("voice", required: false) { voice = self.voice(named: name, in: voices, reader: &reader) }
        let cue: ReplyCue?
        switch (reader.has("after_turn"), reader.has("at")) {
        case (true, true):
            reader.report("at", "give either `after_turn` (the turn it answers) or `at` (when to say it unprompted), not both")
            cue = nil
        case (false, false):
            reader.report(nil, "say when: `after_turn = N` answers the person's turn N, `at = SECONDS` speaks unprompted")
            cue = nil
        case (true, false):
            cue = turn.map { .afterTurn($0, delayMilliseconds: delay ?? 0) }
        case (false, true):
            if reader.has("delay_ms") {
                reader.report("delay_ms", "`delay_ms` goes with `after_turn`; with `at`, put the time in `at`")
            }
            cue = at.map { .at(seconds: $0) }
        }
        if voice == nil, !reader.has("voice"), !scriptNamesVoice {
            reader.report(nil, "there is no voice to speak in: no voice files were found (see voices/README.md)")
        }
        guard let cue, let text, let voice, let line = reader.lines.header(ofReply: reader.reply ?? 0) else { return nil }
        return ScriptedReply(cue: cue, text: text, voice: voice, line: line)
    }

    /// The voice whose id or else display name is `name` (case-insensitively), or a problem
    /// listing the voices there are.
    private static func voice(named name: String, in voices: [Voice], reader: inout ScriptTableReader) -> Voice? {
        let wanted = name.lowercased()
        if let voice = voices.first(where: { $0.id.lowercased() == wanted }) ?? voices.first(where: { $0.displayName.lowercased() == wanted }) {
            return voice
        }
        let known = voices.map(\.id).sorted().joined(separator: ", ")
        reader.report("voice", "there is no voice called \"\(name)\" (voices: \(known.isEmpty ? "none found" : known))")
        return nil
    }
}

/// Reads typed values from one table of a conversation script (the top of the file or one
/// `[[reply]]`), collecting problems instead of stopping at the first, so the script's author
/// sees all of them at once, each with its line.
struct ScriptTableReader {
    let table: TOMLTable
    /// The `[[reply]]` this table is, counting from 1; nil for the top of the file.
    let reply: Int?
    let file: String
    let lines: ScriptLines
    var problems: [ScriptProblem] = []

    mutating func report(_ key: String?, _ message: String) {
        problems.append(ScriptProblem(file: file, line: lines.line(of: key, inReply: reply), reply: reply, key: key, message: message))
    }

    func has(_ key: String) -> Bool { table[key] != nil }

    mutating func rejectUnknownKeys(allowed: [String]) {
        for key in table.keys.sorted() where !allowed.contains(key) {
            report(key, "unknown key `\(key)` (known: \(allowed.joined(separator: ", ")))")
        }
    }

    /// A non-empty string; a missing one is reported when `required`.
    mutating func text(_ key: String, required: Bool) -> String? {
        guard let value = table[key] else {
            if required { report(key, "missing required key `\(key)`") }
            return nil
        }
        guard let text = value.string else {
            report(key, "`\(key)` must be a string, not \(value.type.phrase)")
            return nil
        }
        guard !text.allSatisfy(\.isWhitespace) else {
            report(key, "`\(key)` must not be empty")
            return nil
        }
        return text
    }

    /// An integer within `range`, if present; `expected` says what it must be, in words.
    mutating func integer(_ key: String, in range: ClosedRange<Int>, expected: String) -> Int? {
        guard let value = table[key] else { return nil }
        guard let integer = value.int else {
            report(key, "`\(key)` must be \(expected), not \(value.type.phrase)")
            return nil
        }
        guard range.contains(integer) else {
            report(key, "`\(key)` must be \(expected), not \(integer)")
            return nil
        }
        return integer
    }

    /// An integer or floating-point number within `range`, if present.
    mutating func number(_ key: String, in range: ClosedRange<Double>, expected: String) -> Double? {
        guard let value = table[key] else { return nil }
        guard let number = value.double ?? value.int.map(Double.init) else {
            report(key, "`\(key)` must be \(expected), not \(value.type.phrase)")
            return nil
        }
        guard range.contains(number) else {
            report(key, "`\(key)` must be \(expected), not \(value.int.map(String.init) ?? String(number))")
            return nil
        }
        return number
    }
}

/// Finds where keys sit in a conversation script's text, since the TOML parser reports lines
/// only for syntax errors: the `[[reply]]` headers and each `key =` line below them.
///
/// It reads lines, not TOML: a key inside a multi-line string could mislead it, in which case a
/// problem points at the reply's header instead, which is still the right place to look.
struct ScriptLines {
    private let lines: [Substring]
    /// 0-based indices of the lines that open a table (`[...]` or `[[...]]`).
    private let headers: [Int]
    /// 0-based indices of the `[[reply]]` headers, in order.
    private let replyHeaders: [Int]

    init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var headers: [Int] = [], replyHeaders: [Int] = []
        for (index, line) in lines.enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard trimmed.hasPrefix("[") else { continue }
            headers.append(index)
            let name = trimmed.filter { $0 != " " && $0 != "\t" }
            if name.hasPrefix("[[reply]]") { replyHeaders.append(index) }
        }
        self.headers = headers
        self.replyHeaders = replyHeaders
    }

    /// The 1-based line of the `number`th `[[reply]]` header (counting from 1).
    func header(ofReply number: Int) -> Int? {
        replyHeaders.indices.contains(number - 1) ? replyHeaders[number - 1] + 1 : nil
    }

    /// The 1-based line where `key` is set, at the top of the file (`reply` nil) or in the
    /// `reply`th `[[reply]]`; else that reply's header line.
    func line(of key: String?, inReply reply: Int?) -> Int? {
        let start: Int
        if let reply {
            guard replyHeaders.indices.contains(reply - 1) else { return nil }
            start = replyHeaders[reply - 1] + 1
        } else {
            start = 0
        }
        let end = headers.first { $0 >= start } ?? lines.count
        if let key {
            for index in start..<end where Self.sets(lines[index], key: key) { return index + 1 }
            // A table where a value belongs (`[reply]` for `[[reply]]`) is set by its header.
            if reply == nil, let index = headers.first(where: { Self.names(lines[$0], table: key) }) { return index + 1 }
        }
        return reply.flatMap(header(ofReply:))
    }

    /// Whether `line` is the header `[table]` or `[[table]]`.
    private static func names(_ line: Substring, table: String) -> Bool {
        let name = line.filter { $0 != " " && $0 != "\t" }
        return name.hasPrefix("[\(table)]") || name.hasPrefix("[[\(table)]]")
    }

    /// Whether `line` is `key = …` (bare or quoted key).
    private static func sets(_ line: Substring, key: String) -> Bool {
        var rest = line.drop { $0 == " " || $0 == "\t" }
        for form in [key, "\"\(key)\"", "'\(key)'"] where rest.hasPrefix(form) {
            rest = rest.dropFirst(form.count).drop { $0 == " " || $0 == "\t" }
            return rest.hasPrefix("=")
        }
        return false
    }
}
