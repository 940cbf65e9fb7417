import EarshotBase
public import EarshotSpeech
import FoundationEssentials

extension ConversationScript {
    static let topLevelKeys = ["voice", "echo_gain", "echo_delay_ms", "reply"]
    static let replyKeys = ["after_turn", "delay_ms", "at", "text", "voice"]
    /// A script is a page of replies; anything far larger is the wrong file.
    static let maximumBytes = 1 << 20

    /// Reads and parses the script at `path`; problems name the file as `path` is written.
    /// Voices are looked up in `voices` by id or name; replies without one use `defaultVoice`.
    public static func read(path: String, voices: [Voice], defaultVoice: Voice?) throws(ConversationScriptError) -> ConversationScript {
        let text: String
        do {
            text = try TextFile.read(path, maximumBytes: maximumBytes)
        } catch {
            let reason = error == .notUTF8 ? "it is not readable UTF-8 text" : error.description
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
            table = try TOMLParser.parse(text)
        } catch {
            throw ConversationScriptError(problems: [ScriptProblem(file: file, line: error.line, message: "invalid TOML: \(error.message)")])
        }
        let place = ScriptPlace(file: file, reply: nil)
        var top = place.reader(table, at: nil)
        top.rejectUnknownKeys(allowed: topLevelKeys)
        var scriptVoice = defaultVoice
        if let name = top.text("voice") {
            scriptVoice = voice(named: name, in: voices, reader: &top, place: place)
        }
        let echoGain = top.number("echo_gain", in: 0...1, expected: "a gain from 0 (no echo) to 1 (as loud as played)") ?? 0
        let echoDelay = top.integer("echo_delay_ms", in: 10...300, expected: "milliseconds from 10 to 300") ?? 50
        var replies: [ScriptedReply] = []
        if let value = table["reply"] {
            if let array = value.array {
                var answered: [Int: Int] = [:]
                for (offset, element) in array.enumerated() {
                    let number = offset + 1
                    guard let replyTable = element.table else {
                        place.report("reply", "`reply` must hold tables: write each reply under its own [[reply]] header", in: &top)
                        break
                    }
                    let replyPlace = ScriptPlace(file: file, reply: number)
                    var reader = replyPlace.reader(replyTable, at: element.position)
                    let reply = readReply(&reader, place: replyPlace, voices: voices, scriptVoice: scriptVoice, scriptNamesVoice: top.has("voice"))
                    if let reply, let turn = reply.turn {
                        if let earlier = answered[turn] {
                            replyPlace.report("after_turn", "turn \(turn) already has a reply (reply \(earlier)); a turn gets one reply", in: &reader)
                        } else {
                            answered[turn] = number
                        }
                    }
                    top.problems += reader.problems
                    if let reply, reader.problems.isEmpty { replies.append(reply) }
                }
            } else {
                place.report(
                    "reply", "`reply` must be an array of tables: write each reply under its own [[reply]] header, not [reply]", in: &top)
            }
        }
        guard top.problems.isEmpty else { throw ConversationScriptError(problems: top.problems) }
        return ConversationScript(file: file, replies: replies, echoGain: echoGain, echoDelayMilliseconds: echoDelay)
    }

    /// One `[[reply]]`; `scriptNamesVoice` says the top of the file names a voice (whose
    /// problem, if it has one, is reported there).
    private static func readReply(
        _ reader: inout TOMLTableReader<ScriptProblem>, place: ScriptPlace, voices: [Voice], scriptVoice: Voice?, scriptNamesVoice: Bool
    ) -> ScriptedReply? {
        reader.rejectUnknownKeys(allowed: replyKeys)
        let text = reader.text("text", required: true)
        let turn = reader.integer("after_turn", in: 1...Int(Int32.max), expected: "the number of the person's turn it answers, from 1 up")
        let delay = reader.integer("delay_ms", in: 0...60_000, expected: "milliseconds from 0 to 60000")
        let at = reader.number("at", in: 0...86_400, expected: "seconds of audio time, 0 or more")
        var voice = scriptVoice
        if let name = reader.text("voice") { voice = self.voice(named: name, in: voices, reader: &reader, place: place) }
        let cue: ReplyCue?
        switch (reader.has("after_turn"), reader.has("at")) {
        case (true, true):
            place.report("at", "give either `after_turn` (the turn it answers) or `at` (when to say it unprompted), not both", in: &reader)
            cue = nil
        case (false, false):
            place.report(nil, "say when: `after_turn = N` answers the person's turn N, `at = SECONDS` speaks unprompted", in: &reader)
            cue = nil
        case (true, false):
            cue = turn.map { .afterTurn($0, delayMilliseconds: delay ?? 0) }
        case (false, true):
            if reader.has("delay_ms") {
                place.report("delay_ms", "`delay_ms` goes with `after_turn`; with `at`, put the time in `at`", in: &reader)
            }
            cue = at.map { .at(seconds: $0) }
        }
        if voice == nil, !reader.has("voice"), !scriptNamesVoice {
            place.report(nil, "there is no voice to speak in: no voice files were found (see voices/README.md)", in: &reader)
        }
        guard let cue, let text, let voice, let line = reader.position?.line else { return nil }
        return ScriptedReply(cue: cue, text: text, voice: voice, line: line)
    }

    /// The voice whose id or else display name is `name` (case-insensitively), or a problem
    /// listing the voices there are.
    private static func voice(
        named name: String, in voices: [Voice], reader: inout TOMLTableReader<ScriptProblem>, place: ScriptPlace
    ) -> Voice? {
        let wanted = name.lowercased()
        if let voice = voices.first(where: { $0.id.lowercased() == wanted }) ?? voices.first(where: { $0.displayName.lowercased() == wanted }) {
            return voice
        }
        let known = voices.map(\.id).sorted().joined(separator: ", ")
        place.report("voice", "there is no voice called \"\(name)\" (voices: \(known.isEmpty ? "none found" : known))", in: &reader)
        return nil
    }
}

/// Which script a problem is in, and which of its `[[reply]]`s (counting from 1; nil for the top
/// of the file): every problem names both, and the line of its key or else of the reply's header.
struct ScriptPlace {
    let file: String
    let reply: Int?

    /// A reader of the table at this place (its header at `position`), collecting every problem
    /// instead of stopping at the first, so the script's author sees all of them at once.
    func reader(_ table: TOMLTable, at position: TOMLPosition?) -> TOMLTableReader<ScriptProblem> {
        TOMLTableReader(table, position: position) { [file, reply] problem in
            ScriptProblem(
                file: file, line: problem.position?.line, reply: reply, key: problem.key, message: problem.message(naming: problem.key ?? "")
            )
        }
    }

    /// A problem in the script's own words, at the line of `key` in `reader` (else of its header).
    func report(_ key: String?, _ message: String, in reader: inout TOMLTableReader<ScriptProblem>) {
        reader.problems.append(ScriptProblem(file: file, line: reader.position(of: key)?.line, reply: reply, key: key, message: message))
    }
}
