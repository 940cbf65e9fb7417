import EarshotBase
import EarshotProtocol
import EarshotSpeech

/// Answers each final transcript with the reply source (the assistant on a chat server, or the
/// responder command), speaking its pieces as they stream: the first piece starts the reply,
/// later pieces are said after it. Every piece goes through the turn machine, which says whether
/// the reply still wants it; once it does not, the source is stopped (the request dropped, the
/// command killed).
///
/// A source's failure is an `error` event; a ``ReplyFailure`` is also said to the person, in the
/// current voice, after whatever of the reply was already said.
///
/// `answer` and `cancel` are called inside the session's pipeline lock: they only start or
/// cancel a task.
final class ResponderRunner: Sendable {
    let source: any ReplySource
    private let current = Locked<(turn: Int, task: Task<Void, Never>)?>(nil)
    /// The turn each recent reply answers, so what the player says was heard reaches its turn;
    /// and, when a failure notice followed the source's words, how many characters those were:
    /// the notice is the daemon's words, not the source's.
    private let replyTurns = Locked<[(reply: Int, turn: Int, ownLength: Int?)]>([])

    init(source: any ReplySource) {
        self.source = source
    }

    var name: String { source.name }

    func answer(turn: Int, transcript: String, session: VoiceSession) {
        let task = Task { [source, self] in
            var reply: Int?
            var failure: ReplyFailure?
            var ownLength = -1
            do {
                for try await piece in source.respond(turn: turn, transcript: transcript) {
                    ownLength += 1 + piece.count
                    if let reply {
                        guard session.continueStreamedReply(reply, text: piece, more: true) else { return }
                    } else {
                        reply = session.startStreamedReply(turn: turn, text: piece)
                        guard let reply else { return }
                        remember(reply: reply, turn: turn)
                    }
                }
            } catch is CancellationError {
                return
            } catch let error as ReplyFailure {
                failure = error
                session.reportError(.assistantFailed, message: error.message)
            } catch {
                session.reportError(.responderFailed, message: "\(error)")
            }
            if Task.isCancelled { return }
            if let reply {
                if failure != nil { remember(reply: reply, turn: turn, ownLength: ownLength) }
                _ = session.continueStreamedReply(reply, text: failure?.notice ?? "", more: false)
            } else if let failure, let reply = session.startStreamedReply(turn: turn, text: failure.notice) {
                remember(reply: reply, turn: turn, ownLength: 0)
                _ = session.continueStreamedReply(reply, text: "", more: false)
            } else {
                session.declineReply(turn: turn)
            }
        }
        let previous = current.withLock { current in
            defer { current = (turn, task) }
            return current
        }
        previous?.task.cancel()
    }

    /// Stops the source answering `turn` (any turn when nil): its request or process ends.
    func cancel(turn: Int?) {
        let cancelled = current.withLock { current -> Task<Void, Never>? in
            guard let running = current, turn == nil || running.turn == turn else { return nil }
            current = nil
            return running.task
        }
        cancelled?.cancel()
    }

    /// The player's word on what of `reply` was heard, once it ended (played out or stopped).
    func replyEnded(_ reply: Int, heard: String) {
        guard let entry = replyTurns.withLock({ $0.last { $0.reply == reply } }) else { return }
        // The sentences were played in order, the notice last: the source's words come first.
        let own = entry.ownLength.map { heard.prefix(max(0, $0)) } ?? heard[...]
        source.heard(turn: entry.turn, text: String(own.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()))
    }

    /// Forgets the conversation (`dismiss`, `forget`).
    /// `turn` went on as the next turn: its question is the source's to forget.
    func withdraw(turn: Int) {
        source.withdraw(turn: turn)
    }

    func forgetConversation() {
        source.forget()
    }

    private func remember(reply: Int, turn: Int, ownLength: Int? = nil) {
        replyTurns.withLock { entries in
            entries.removeAll { $0.reply == reply }
            entries.append((reply, turn, ownLength))
            if entries.count > 8 { entries.removeFirst(entries.count - 8) }
        }
    }
}
