public import EarshotAudio
import EarshotBase
public import EarshotProtocol
public import EarshotTurns

/// Runs a recording through a fresh ``VoicePipeline`` and renders its events as JSON lines,
/// exactly as the daemon sends them but for `wall`.
public struct Replay<Detector: VoiceActivityDetector> {
    public var pipeline: VoicePipeline<Detector>
    private var json = JSONLineWriter()

    public init(detector: Detector, configuration: VoicePipeline<Detector>.Configuration) {
        pipeline = VoicePipeline(detector: detector, configuration: configuration)
    }

    /// Processes the whole clip as fast as possible; `write` receives the output in chunks.
    /// With `wake`, voice mode waits for its phrase, heard by that spotter as the daemon's is.
    public mutating func run(_ clip: AudioClip, wake: WakeListening? = nil, write: ([UInt8]) -> Void) {
        let flushThreshold = 64 * 1024
        for frame in clip.frames {
            feed(frame, wake: wake)
            if json.bytes.count >= flushThreshold { flush(to: write) }
        }
        end()
        flush(to: write)
    }

    /// Feeds one frame with the wake work done by `wake`: a phrase heard in it is reported
    /// before the next frame, as the frame it was heard in.
    public mutating func feed(_ frame: borrowing AudioFrame, wake: WakeListening?) {
        var heard: Int?
        feed(frame) { work in
            if let index = wake?.perform(work) { heard = index }
        }
        if let heard { wakePhraseHeard(atFrame: heard) }
    }

    /// The spotter heard the wake phrase ending with frame `index` (see
    /// ``VoicePipeline/wakePhraseHeard(atFrame:emit:work:)``).
    public mutating func wakePhraseHeard(atFrame index: Int, work: (SpeechWork) -> Void = { _ in }) {
        pipeline.wakePhraseHeard(atFrame: index, emit: { SocketEvent($0).write(to: &json) }, work: work)
    }

    /// Feeds one frame, buffering its events' lines; the speech work it causes goes to `work`.
    public mutating func feed(_ frame: borrowing AudioFrame, work: (SpeechWork) -> Void = { _ in }) {
        pipeline.process(frame, emit: { SocketEvent($0).write(to: &json) }, work: work)
    }

    /// Ends the stream, buffering the last events' lines.
    public mutating func end(work: (SpeechWork) -> Void = { _ in }) {
        pipeline.finish(emit: { SocketEvent($0).write(to: &json) }, work: work)
    }

    /// Reports a transcript (see ``VoicePipeline/transcript(turn:text:final:sentenceEnd:coveredSamples:wordsEndSamples:emit:work:)``).
    public mutating func transcript(
        turn: Int, text: String, final: Bool, sentenceEnd: Double? = nil, coveredSamples: Int? = nil,
        wordsEndSamples: Int? = nil, work: (SpeechWork) -> Void = { _ in }
    ) {
        pipeline.transcript(
            turn: turn, text: text, final: final, sentenceEnd: sentenceEnd, coveredSamples: coveredSamples,
            wordsEndSamples: wordsEndSamples, emit: { SocketEvent($0).write(to: &json) }, work: work
        )
    }

    /// Applies an input to the turn machine, buffering the events that follow.
    @discardableResult
    public mutating func apply(
        _ input: (inout TurnMachine<StreamClock>) -> TurnAction, work: (SpeechWork) -> Void = { _ in }
    ) -> TurnAction {
        pipeline.apply(input, emit: { SocketEvent($0).write(to: &json) }, work: work)
    }

    /// Reports that the transcriber could not take `turn` (see
    /// ``VoicePipeline/transcriptionFailed(turn:message:retryIn:emit:work:)``).
    public mutating func transcriptionFailed(turn: Int, message: String, work: (SpeechWork) -> Void = { _ in }) {
        pipeline.transcriptionFailed(turn: turn, message: message, retryIn: nil, emit: { SocketEvent($0).write(to: &json) }, work: work)
    }

    /// Buffers an error event from outside the pipeline at the current audio time.
    public mutating func reportError(_ code: ProtocolError.Code, message: String) {
        write(.error(ErrorEvent(code: code, message: message, time: pipeline.now)))
    }

    /// Buffers an event from outside the pipeline (the speaker's, in a scripted replay) after
    /// the pipeline's events so far.
    public mutating func write(_ event: SocketEvent) {
        event.write(to: &json)
    }

    /// Hands the buffered lines to `write` (if any) and empties the buffer.
    public mutating func flush(to write: ([UInt8]) -> Void) {
        guard !json.bytes.isEmpty else { return }
        write(json.bytes)
        json.removeAll()
    }
}
