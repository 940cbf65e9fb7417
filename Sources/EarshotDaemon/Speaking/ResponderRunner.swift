import EarshotBase
import EarshotConversation

/// Answers each final transcript with the configured responder command, speaking its output
/// as it streams: the first piece starts the reply, later pieces are said after it. Every piece
/// goes through the turn machine, which says whether the reply still wants it; once it does
/// not, the command is stopped.
///
/// `answer` and `cancel` are called inside the session's pipeline lock: they only start or
/// cancel a task.
final class ResponderRunner: Sendable {
    private let responder: Responder
    private let current = Locked<(turn: Int, task: Task<Void, Never>)?>(nil)

    init(responder: Responder) {
        self.responder = responder
    }

    var command: String { responder.command }

    func answer(turn: Int, transcript: String, session: VoiceSession) {
        let task = Task { [responder] in
            var reply: Int?
            do {
                for try await piece in responder.respond(turn: turn, transcript: transcript) {
                    if let reply {
                        guard session.continueStreamedReply(reply, text: piece, more: true) else { return }
                    } else {
                        reply = session.startStreamedReply(turn: turn, text: piece)
                        if reply == nil { return }
                    }
                }
            } catch is CancellationError {
                return
            } catch {
                session.reportError(.responderFailed, message: "\(error)")
            }
            if Task.isCancelled { return }
            if let reply {
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

    /// Stops the responder answering `turn` (any turn when nil): its process is killed.
    func cancel(turn: Int?) {
        let cancelled = current.withLock { current -> Task<Void, Never>? in
            guard let running = current, turn == nil || running.turn == turn else { return nil }
            current = nil
            return running.task
        }
        cancelled?.cancel()
    }
}
