import EarshotAudio
import EarshotPulse

/// A value the capture thread owns: reached only under the engine's capture lock, which the
/// frame handler already holds, so the capture path takes no lock of its own for it.
final class CaptureConfined<Value>: @unchecked Sendable {
    // @unchecked: `value` is touched only inside `engine.withCaptureLock`.
    private var value: Value
    private let engine: PulseAudioEngine

    init(_ value: Value, engine: PulseAudioEngine) {
        self.value = value
        self.engine = engine
    }

    /// Not reentrant for the same value: `body` must not reach this value again.
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        engine.withCaptureLock { body(&value) }
    }
}

/// An utterance's frames, gathered on the capture thread and handed on ten at a time, so the
/// transcriber's and the recorder's copies are made once per 100 ms rather than once per frame.
struct UtteranceBatch {
    static let capacity = 10
    private var turn: Int?
    private var frames: [AudioFrame] = []

    init() {
        frames.reserveCapacity(Self.capacity)
    }

    /// Starts gathering `turn`'s frames (nil: none), forgetting any not handed on.
    mutating func begin(turn: Int?) {
        self.turn = turn
        frames.removeAll(keepingCapacity: true)
    }

    /// Adds `turn`'s next frame; true when the batch is full and should be handed on.
    mutating func add(_ frame: AudioFrame, turn: Int) -> Bool {
        if turn != self.turn { begin(turn: turn) }
        frames.append(frame)
        return frames.count >= Self.capacity
    }

    /// Gives `body` the frames gathered so far, if any, and empties the batch.
    mutating func handOn(_ body: (_ turn: Int, _ frames: [AudioFrame]) -> Void) {
        guard let turn, !frames.isEmpty else { return }
        body(turn, frames)
        frames.removeAll(keepingCapacity: true)
    }
}
