import EarshotAudio

/// When each scripted reply is due: an answer once the pipeline asks for the reply to its turn
/// and its delay has passed; an unprompted reply once its time has come and the voice UI is
/// `listening` (it waits out a turn in progress, as a front end would).
struct ReplySchedule {
    /// Answers by the turn they answer, not yet asked for.
    private var answers: [Int: ScriptedReply] = [:]
    /// Unprompted replies not yet said, by time (file order among equal times).
    private var unprompted: [(reply: ScriptedReply, frame: Int)] = []
    /// Answers asked for, with the frame after which each is given.
    private var asked: [(reply: ScriptedReply, frame: Int)] = []

    init(_ replies: [ScriptedReply]) {
        for reply in replies {
            switch reply.cue {
            case .afterTurn(let turn, _):
                answers[turn] = reply
            case .at(let seconds):
                // Said after the frame that ends at `seconds` (rounded to the 10 ms grid).
                unprompted.append((reply, max(0, Int((seconds / AudioFrame.duration).rounded()) - 1)))
            }
        }
        unprompted = unprompted.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
    }

    /// The pipeline asks for the reply to `turn` after frame `frame`; false when the script has none.
    mutating func ask(turn: Int, afterFrame frame: Int) -> Bool {
        guard let reply = answers.removeValue(forKey: turn) else { return false }
        var delayFrames = 0
        if case .afterTurn(_, let milliseconds) = reply.cue {
            delayFrames = Int((Double(milliseconds) / (AudioFrame.duration * 1000)).rounded(.up))
        }
        asked.append((reply, frame + delayFrames))
        return true
    }

    /// The turn moved on before its answer was given: it is never said.
    mutating func discard(turn: Int) {
        asked.removeAll { $0.reply.turn == turn }
    }

    /// The reply to say after frame `frame`, if one is due.
    mutating func takeDue(afterFrame frame: Int, listening: Bool) -> ScriptedReply? {
        if let index = asked.firstIndex(where: { $0.frame <= frame }) { return asked.remove(at: index).reply }
        if listening, let first = unprompted.first, first.frame <= frame { return unprompted.removeFirst().reply }
        return nil
    }

    /// Replies asked for or still to come unprompted.
    var hasPending: Bool { !asked.isEmpty || !unprompted.isEmpty }
}
