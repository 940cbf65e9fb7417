import EarshotAudio

/// The utterance a debug recording is collecting, in memory, on the pipeline thread: its
/// samples go into a buffer reserved beforehand, so appending a frame never allocates, and a
/// finished utterance leaves with its buffer while a spare one takes its place.
struct UtteranceCapture {
    /// An utterance complete in memory, ready to be written.
    struct Finished: Sendable {
        var turn: Int
        /// 16 kHz mono; its capacity comes back through ``UtteranceCapture/recycle(_:)``.
        var samples: [Int16]
        var audioStart: Double
        var audioEnd: Double
        /// Wall-clock time of the first sample, Unix seconds.
        var startedAt: Double
        var truncated: Bool
        /// The ``UtteranceCapture/generation`` it was recorded in.
        var generation: Int
    }

    /// The longest utterance a recording holds; the rest of a longer one is not kept.
    static let maximumSeconds = 60
    static let capacity = maximumSeconds * AudioFrame.sampleRate
    /// Buffers kept for reuse besides the one collecting: the next utterance's, while the
    /// previous one is being written.
    static let spareLimit = 2

    /// The turn being collected, nil between utterances.
    private(set) var turn: Int?
    private var samples: [Int16]
    private var spare: [[Int16]] = []
    private var audioStart = 0.0
    private var audioEnd = 0.0
    private var startedAt = 0.0
    private var truncated = false
    /// Goes up with every `forget`: what was recorded before belongs to the recordings forgotten.
    private(set) var generation = 0
    /// The turn whose transcript asked for a reply, until the reply starts.
    private var awaitingReply: Int?
    /// A reply held unheard until its turn's end is confirmed, with its first text.
    var heldReply: (reply: Int, text: String)?

    init() {
        samples = Self.emptyBuffer()
        spare = [Self.emptyBuffer()]
    }

    private static func emptyBuffer() -> [Int16] {
        var buffer: [Int16] = []
        buffer.reserveCapacity(capacity)
        return buffer
    }

    /// Starts collecting `turn` with the audio before its onset (prefix padding included).
    /// `wall` is now: the first frame was captured `frames.count` frames earlier.
    mutating func begin(turn: Int, frames: [AudioFrame], wall: Double) {
        self.turn = turn
        samples.removeAll(keepingCapacity: true)
        truncated = false
        awaitingReply = nil
        audioStart = frames.first.map(\.startTime) ?? 0
        audioEnd = audioStart
        startedAt = wall - Double(frames.count) * AudioFrame.duration
        for frame in frames { append(frame, turn: turn) }
    }

    /// The next frame of `turn`'s utterance.
    mutating func append(_ frame: borrowing AudioFrame, turn: Int) {
        guard turn == self.turn else { return }
        // A held turn begins with no audio: it starts with its first frame.
        if samples.isEmpty { audioStart = frame.startTime }
        audioEnd = frame.startTime + AudioFrame.duration
        guard samples.count + AudioFrame.sampleCount <= Self.capacity else {
            truncated = true
            return
        }
        for index in 0..<AudioFrame.sampleCount {
            let scaled = (frame.samples[index] * 32_767).rounded()
            samples.append(Int16(max(-32_768, min(32_767, scaled))))
        }
    }

    /// `turn`'s utterance is complete: it leaves with its buffer; nil if it was not being collected.
    mutating func end(turn: Int) -> Finished? {
        guard turn == self.turn else { return nil }
        self.turn = nil
        var finished = spare.popLast() ?? Self.emptyBuffer()
        swap(&finished, &samples)
        return Finished(
            turn: turn, samples: finished, audioStart: audioStart, audioEnd: truncated ? audioStart + Double(Self.maximumSeconds) : audioEnd,
            startedAt: startedAt, truncated: truncated, generation: generation
        )
    }

    /// The person went on after an eager end of `dropped`: the audio collected goes on as
    /// `turn`'s, and the reply asked for the dropped turn is not awaited any more.
    mutating func continueUtterance(from dropped: Int, turn: Int) {
        guard dropped == self.turn else { return }
        self.turn = turn
        awaitingReply = nil
        heldReply = nil
    }

    /// Drops `turn`'s audio (the turn was cancelled or dismissed).
    mutating func discard(turn: Int) {
        guard turn == self.turn else { return }
        self.turn = nil
        samples.removeAll(keepingCapacity: true)
    }

    /// A written utterance's buffer, for a later one. It is emptied when that one begins, by
    /// when the writer has let go of it, so emptying keeps its storage rather than copying it.
    mutating func recycle(_ buffer: [Int16]) {
        guard spare.count < Self.spareLimit, buffer.capacity >= Self.capacity else { return }
        spare.append(buffer)
    }

    /// The person's transcript for `turn` asked for a reply.
    mutating func replyRequested(turn: Int) {
        awaitingReply = turn
    }

    /// No reply is awaited any more.
    mutating func replyAbandoned() {
        awaitingReply = nil
    }

    /// A reply starts; returns the turn it answers, if it answers one.
    mutating func replyStarted() -> Int? {
        defer { awaitingReply = nil }
        return awaitingReply
    }

    /// Everything recorded so far is being forgotten: the utterance under way too.
    mutating func forget() -> Int {
        generation += 1
        turn = nil
        awaitingReply = nil
        samples.removeAll(keepingCapacity: true)
        return generation
    }
}
