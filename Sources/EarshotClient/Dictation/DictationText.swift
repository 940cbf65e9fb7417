/// What dictation types for each final transcript: the words with a space before them, the
/// first letter of a sentence capitalised, and the spoken commands carried out.
///
/// A transcript is a turn. Within it, "new line" and "new paragraph" become line breaks, and
/// "scratch that" drops the words of the turn before it; said alone (or first) it removes the
/// previous turn's text, with one backspace per character that turn typed. Earlier turns can be
/// scratched one after another, up to `rememberedTurns` back.
///
/// A sentence begins where dictation starts, after a line break, and after a word ending in
/// `.`, `!` or `?` (as servers like Whisper punctuate); the pronoun "i" is capitalised too.
public struct DictationText: Equatable, Sendable {
    /// How many typed turns "scratch that" can take back, newest first.
    public static let rememberedTurns = 50

    /// One thing for the typing tool to do.
    public enum Step: Equatable, Sendable {
        /// Type these characters (never a line break).
        case text(String)
        /// Press Return.
        case newLine
        /// Press BackSpace this many times.
        case erase(Int)
    }

    /// What the text in the window looks like at its end, as far as this dictation typed it.
    public enum State: Equatable, Sendable {
        /// Nothing typed yet (or all of it scratched): the next word starts a sentence, without a
        /// space before it.
        case atStart
        /// Text was typed; `typed` holds each turn's characters, oldest first, for "scratch
        /// that".
        case typed([TypedTurn])
    }

    /// The characters one turn typed (a line break counts as one).
    public struct TypedTurn: Equatable, Sendable {
        public var text: String
        public init(_ text: String) { self.text = text }
    }

    public private(set) var state: State = .atStart

    public init() {}

    /// The steps that type `transcript`, a turn's final text.
    public mutating func type(_ transcript: String) -> [Step] {
        var words = transcript.split(whereSeparator: \.isWhitespace).map(String.init)
        var steps: [Step] = []
        var turn = ""
        while !words.isEmpty {
            if let command = Command.matching(words) {
                words.removeFirst(command.wordCount)
                switch command {
                case .newLine: turn += "\n"
                case .newParagraph: turn += "\n\n"
                case .scratchThat:
                    if turn.isEmpty {
                        steps += scratchPreviousTurn()
                    } else {
                        turn = ""
                    }
                }
                continue
            }
            let word = words.removeFirst()
            let before = typedEnd(followedBy: turn)
            let previous = turn.isEmpty ? before : turn.last
            let sentenceStart = Self.startsSentence(after: previous, atStart: turn.isEmpty && before == nil)
            if Self.needsSpace(after: previous, before: word) { turn += " " }
            turn += Self.capitalised(word, sentenceStart: sentenceStart)
        }
        guard !turn.isEmpty else { return steps }
        remember(TypedTurn(turn))
        return steps + Self.steps(typing: turn)
    }

    /// The last character already in the window when the current turn is still empty, or `nil`
    /// at the start.
    private func typedEnd(followedBy turn: String) -> Character? {
        guard turn.isEmpty, case .typed(let turns) = state else { return nil }
        return turns.last?.text.last
    }

    private mutating func scratchPreviousTurn() -> [Step] {
        guard case .typed(var turns) = state, let last = turns.popLast() else { return [] }
        state = turns.isEmpty ? .atStart : .typed(turns)
        return [.erase(last.text.count)]
    }

    private mutating func remember(_ turn: TypedTurn) {
        var turns: [TypedTurn] = if case .typed(let typed) = state { typed } else { [] }
        turns.append(turn)
        if turns.count > Self.rememberedTurns { turns.removeFirst(turns.count - Self.rememberedTurns) }
        state = .typed(turns)
    }

    /// The text cut at its line breaks into steps.
    static func steps(typing text: String) -> [Step] {
        var steps: [Step] = []
        var run = ""
        for character in text {
            if character == "\n" {
                if !run.isEmpty { steps.append(.text(run)) }
                run = ""
                steps.append(.newLine)
            } else {
                run.append(character)
            }
        }
        if !run.isEmpty { steps.append(.text(run)) }
        return steps
    }

    /// No space at a line's start, nor before punctuation that clings to the word before it.
    static func needsSpace(after previous: Character?, before word: String) -> Bool {
        guard let previous, previous != "\n", !previous.isWhitespace else { return false }
        guard let first = word.first else { return false }
        return !",.;:!?)]}…%".contains(first)
    }

    static func startsSentence(after previous: Character?, atStart: Bool) -> Bool {
        if atStart { return true }
        guard let previous else { return false }
        return previous == "\n" || ".!?".contains(previous)
    }

    static func capitalised(_ word: String, sentenceStart: Bool) -> String {
        let lowered = word.lowercased()
        if lowered == "i" || lowered.hasPrefix("i'") || lowered.hasPrefix("i’") {
            return "I" + word.dropFirst()
        }
        guard sentenceStart, let first = word.first else { return word }
        return first.uppercased() + word.dropFirst()
    }

    /// A spoken command: the words that say it, matched whole and without regard to case or a
    /// trailing punctuation mark a transcriber may add ("New line.").
    enum Command: CaseIterable {
        case newLine, newParagraph, scratchThat

        var words: [String] {
            switch self {
            case .newLine: ["new", "line"]
            case .newParagraph: ["new", "paragraph"]
            case .scratchThat: ["scratch", "that"]
            }
        }

        var wordCount: Int { words.count }

        static func matching(_ words: [String]) -> Command? {
            allCases.first { command in
                words.count >= command.wordCount
                    && zip(words, command.words).allSatisfy { spoken, word in Self.bare(spoken) == word }
            }
        }

        static func bare(_ word: String) -> String {
            String(word.lowercased().drop { !$0.isLetter }.reversed().drop { !$0.isLetter }.reversed())
        }
    }
}
