/// Which final transcripts dictation types, and when: a turn's text once its utterance has
/// surely ended.
///
/// The daemon may send a turn's final transcript at an eager end, before the end is confirmed;
/// if the person goes on (`resumed`), that turn is dropped and the next one covers the whole
/// utterance. So a final is held until its turn's `end`, and dropped at its `resumed`; without an
/// eager end the final comes after the `end` and is typed at once. A turn the person cancelled
/// never ends, and its held final is never typed. Voice mode switched off (`idle`, after a
/// dismiss) ends dictation.
public struct DictationTurns: Equatable, Sendable {
    /// Enough for any order the daemon sends a turn's events in; older turns are forgotten.
    static let rememberedTurns = 8

    public enum Input: Equatable, Sendable {
        case utteranceEnded(turn: Int)
        case utteranceResumed(turn: Int)
        case finalTranscript(turn: Int, text: String)
        case voiceModeOff
    }

    public enum Action: Equatable, Sendable {
        case none
        /// Type this turn's text.
        case type(turn: Int, text: String)
        /// Voice mode went off: dictation is over.
        case finish
    }

    public enum State: Equatable, Sendable {
        /// Turns whose final came before their end (`held`), and turns that ended before their
        /// final came (`ended`).
        case dictating(held: [Int: String], ended: Set<Int>)
        case finished
    }

    public private(set) var state: State = .dictating(held: [:], ended: [])

    public init() {}

    public mutating func handle(_ input: Input) -> Action {
        guard case .dictating(var held, var ended) = state else { return .none }
        let action: Action
        switch input {
        case .voiceModeOff:
            state = .finished
            return .finish
        case .utteranceEnded(let turn):
            if let text = held.removeValue(forKey: turn) {
                action = Self.typing(turn: turn, text: text)
            } else {
                ended.insert(turn)
                action = .none
            }
        case .utteranceResumed(let turn):
            held[turn] = nil
            action = .none
        case .finalTranscript(let turn, let text):
            if ended.remove(turn) != nil {
                action = Self.typing(turn: turn, text: text)
            } else {
                held[turn] = text
                action = .none
            }
        }
        let newest = max(held.keys.max() ?? 0, ended.max() ?? 0)
        let oldestKept = newest - Self.rememberedTurns
        held = held.filter { $0.key > oldestKept }
        ended = ended.filter { $0 > oldestKept }
        state = .dictating(held: held, ended: ended)
        return action
    }

    /// An empty final (nothing recognised) types nothing.
    private static func typing(turn: Int, text: String) -> Action {
        text.allSatisfy(\.isWhitespace) ? .none : .type(turn: turn, text: text)
    }
}
