import EarshotAudio
import EarshotBase
import EarshotProtocol
import EarshotServer
import EarshotTurns

/// The pipeline's side of debug recording (`earshotd --debug-turns N`): collects each
/// utterance's microphone audio in memory and hands finished utterances, transcripts and
/// replies to the recording writer.
///
/// The session calls it inside its pipeline lock, on the pipeline thread or a command's: it
/// copies samples into a reserved buffer and yields to a stream, and never touches a file or
/// logs. Its own lock is never held while waiting for anything else.
final class DebugRecorder: Sendable {
    private let capture = Locked(UtteranceCapture())
    private let continuation: AsyncStream<RecordingJob>.Continuation
    /// The jobs for the writer, in the order they happened.
    let jobs: AsyncStream<RecordingJob>

    init() {
        (jobs, continuation) = AsyncStream.makeStream(of: RecordingJob.self)
    }

    func beginUtterance(turn: Int, audio: [AudioFrame]) {
        let wall = WallClock.now()
        capture.withLock { $0.begin(turn: turn, frames: audio, wall: wall) }
    }

    func utteranceAudio(turn: Int, frame: AudioFrame) {
        capture.withLock { $0.append(frame, turn: turn) }
    }

    func endUtterance(turn: Int) {
        guard let finished = capture.withLock({ $0.end(turn: turn) }) else { return }
        continuation.yield(.utterance(finished))
    }

    func discardUtterance(turn: Int) {
        capture.withLock { $0.discard(turn: turn) }
    }

    /// The person went on after an eager end of `dropped`: its audio goes on as `turn`'s.
    func continueUtterance(from dropped: Int, turn: Int) {
        capture.withLock { $0.continueUtterance(from: dropped, turn: turn) }
    }

    func finalTranscript(turn: Int, text: String) {
        let generation = capture.withLock { $0.generation }
        continuation.yield(.transcript(turn: turn, text: text, generation: generation))
    }

    func replyRequested(turn: Int) {
        capture.withLock { $0.replyRequested(turn: turn) }
    }

    /// Back to listening (or out of voice mode): a reply asked for earlier was declined or
    /// timed out, and the next one is unprompted.
    func phaseChanged(to phase: TurnPhase) {
        guard phase == .listening || phase == .idle else { return }
        capture.withLock { $0.replyAbandoned() }
    }

    /// `reply` is held unheard until the turn's end is confirmed; it is recorded once released.
    func replyPrepared(reply: Int, text: String) {
        capture.withLock { $0.heldReply = (reply, text) }
    }

    /// The held `reply` plays: recorded as a reply starting.
    func replyReleased(reply: Int) {
        let text = capture.withLock { capture -> String? in
            defer { capture.heldReply = nil }
            return capture.heldReply?.reply == reply ? capture.heldReply?.text : nil
        }
        if let text { replyStarted(text: text) }
    }

    /// A reply starts with `text`: recorded with the turn it answers, if it answers one.
    func replyStarted(text: String) {
        let (turn, generation) = capture.withLock { ($0.replyStarted(), $0.generation) }
        guard let turn else { return }
        continuation.yield(.reply(turn: turn, text: text, generation: generation))
    }

    /// Takes back a written utterance's buffer for a later one.
    func recycle(_ buffer: [Int16]) {
        capture.withLock { $0.recycle(buffer) }
    }

    /// Drops the utterance under way and marks what was handed on so far as forgotten; returns
    /// the generation recordings from now on belong to.
    func forget() -> Int {
        capture.withLock { $0.forget() }
    }

    /// No more jobs: the writer finishes what is queued and stops.
    func close() {
        continuation.finish()
    }
}

/// What the pipeline thread hands the recording writer, in order.
enum RecordingJob: Sendable {
    /// Write a finished utterance's audio and details.
    case utterance(UtteranceCapture.Finished)
    /// `turn`'s final transcript arrived.
    case transcript(turn: Int, text: String, generation: Int)
    /// The reply to `turn` started with `text`.
    case reply(turn: Int, text: String, generation: Int)
}
