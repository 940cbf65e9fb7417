public import EarshotAudio
public import EarshotProtocol

/// The assistant's speaker in a replay: one reply's audio, handed out 10 ms per microphone
/// frame as a live speaker plays it, paused, resumed and stopped as the pipeline asks.
/// Each change comes back as the ``SpeakerEvent`` that reports it.
public struct ScriptedSpeaker: Sendable {
    private struct Playing: Sendable {
        var reply: Int
        var turn: Int?
        var voice: String
        var text: String
        var samples: [Float]
        var offset = 0
        var paused = false
    }

    private var playing: Playing?

    public init() {}

    /// A reply is under way (playing or paused).
    public var isPlaying: Bool { playing != nil }

    /// Starts `reply` (16 kHz samples), replacing whatever was playing.
    public mutating func start(
        reply: Int, turn: Int?, voice: String, text: String, samples: [Float], at time: Double
    ) -> SpeakerEvent {
        let started = Playing(reply: reply, turn: turn, voice: voice, text: text, samples: samples)
        playing = started
        return event(.start, of: started, at: time)
    }

    public mutating func pause(reply: Int, at time: Double) -> SpeakerEvent? {
        guard var current = playing, current.reply == reply, !current.paused else { return nil }
        current.paused = true
        playing = current
        return event(.pause, of: current, at: time)
    }

    public mutating func resume(reply: Int, at time: Double) -> SpeakerEvent? {
        guard var current = playing, current.reply == reply, current.paused else { return nil }
        current.paused = false
        playing = current
        return event(.resume, of: current, at: time)
    }

    /// Abandons `reply`, silencing the speaker at once.
    public mutating func stop(reply: Int, at time: Double) -> SpeakerEvent? {
        guard let current = playing, current.reply == reply else { return nil }
        playing = nil
        return event(.stop, of: current, at: time)
    }

    /// The next 10 ms the speaker plays, stamped `index`; nil while paused or silent. The last
    /// frame of a reply is padded with silence.
    public mutating func nextFrame(index: Int) -> AudioFrame? {
        guard var current = playing, !current.paused, current.offset < current.samples.count else { return nil }
        var frame = AudioFrame.silence(index: index)
        let count = min(AudioFrame.sampleCount, current.samples.count - current.offset)
        for position in 0..<count { frame.samples[position] = current.samples[current.offset + position] }
        current.offset += count
        playing = current
        return frame
    }

    /// Once the whole reply has played, it ends: nothing plays any more.
    public mutating func endIfDone(at time: Double) -> SpeakerEvent? {
        guard let current = playing, current.offset >= current.samples.count else { return nil }
        playing = nil
        return event(.end, of: current, at: time)
    }

    /// A `start` carries the reply's voice, length and words; the others how far it had got.
    private func event(_ phase: SpeakerEvent.Phase, of playing: Playing, at time: Double) -> SpeakerEvent {
        let seconds = { (samples: Int) in Double(samples) / Double(AudioFrame.sampleRate) }
        guard phase != .start else {
            return SpeakerEvent(
                phase: phase, reply: playing.reply, turn: playing.turn, voice: playing.voice,
                duration: seconds(playing.samples.count), text: playing.text, time: time
            )
        }
        return SpeakerEvent(phase: phase, reply: playing.reply, turn: playing.turn, position: seconds(playing.offset), time: time)
    }
}

/// The way from the speaker back into the microphone, for a replay that should hear the
/// assistant's own voice as a live microphone would: what the speaker played `delay` earlier,
/// scaled by `gain`, is added to each microphone frame.
public struct EchoPath: Sendable {
    public let gain: Float
    /// In samples; at least one frame, so a frame's echo is always of audio already played.
    public let delaySamples: Int
    /// The speaker's latest samples, a ring of at least `delaySamples`.
    private var history: [Float]
    /// Samples recorded so far: the end of the speaker's timeline.
    private var recorded = 0

    public init(gain: Double, delayMilliseconds: Int) {
        self.gain = Float(gain)
        delaySamples = max(AudioFrame.sampleCount, delayMilliseconds * AudioFrame.sampleRate / 1000)
        history = [Float](repeating: 0, count: delaySamples + AudioFrame.sampleCount)
    }

    /// Records the 10 ms the speaker played alongside the latest microphone frame (nil: silence).
    public mutating func record(_ played: AudioFrame?) {
        for position in 0..<AudioFrame.sampleCount {
            history[(recorded + position) % history.count] = played?.samples[position] ?? 0
        }
        recorded += AudioFrame.sampleCount
    }

    /// `frame` with the speaker's echo added (clipped to -1...1), assuming the speaker has been
    /// recorded up to the frame's start.
    public func mix(into frame: AudioFrame) -> AudioFrame {
        var mixed = frame
        let start = frame.index * AudioFrame.sampleCount - delaySamples
        for position in 0..<AudioFrame.sampleCount {
            let source = start + position
            guard source >= 0, source < recorded, source >= recorded - history.count else { continue }
            let sample = frame.samples[position] + gain * history[source % history.count]
            mixed.samples[position] = max(-1, min(1, sample))
        }
        return mixed
    }
}
