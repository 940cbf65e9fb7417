import EarshotAudio
import EarshotBase
import EarshotProtocol
import EarshotPulse
import EarshotSpeech
import Logging

/// Speaks replies: splits the text into sentences, synthesizes them in order and queues the
/// audio on the playback stream as it arrives, so the first sentence plays while the rest is
/// still being made, and a reply begins at its first sound (`LeadingSilenceTrim`). `stop`
/// silences the speaker at once.
///
/// `speak` and `stop` are called inside the session's pipeline lock: they start or cancel a
/// task and return without waiting.
final class SpeechPlayer: Sendable {
    private let engine: PulseAudioEngine
    private let synthesizer: any Synthesizer
    private let report: @Sendable (PlaybackReport) -> Void
    private let tap: SpeakerTap
    private let logger: Logger
    private let current = Locked<Playing?>(nil)

    private struct Playing {
        let reply: Int
        let task: Task<Void, Never>
        /// More text for the reply, from a responder still answering.
        let texts: AsyncStream<String>.Continuation
        /// Its sentences placed on its audio, for what of it was heard.
        let played: Locked<PlayedText>
    }

    /// `report` hears when each reply starts and ends; `tap` gets the audio handed to the speaker.
    init(
        engine: PulseAudioEngine, synthesizer: any Synthesizer, tap: SpeakerTap,
        logger: Logger, report: @escaping @Sendable (PlaybackReport) -> Void
    ) {
        self.engine = engine
        self.synthesizer = synthesizer
        self.tap = tap
        self.logger = logger
        self.report = report
    }

    var name: String { synthesizer.name }

    /// Starts saying `reply`. With `more`, further text follows through
    /// ``continueText(reply:text:more:)``; the first sentence plays meanwhile.
    func speak(reply: Int, text: String, voice: Voice, more: Bool = false) {
        let (texts, continuation) = AsyncStream.makeStream(of: String.self)
        continuation.yield(text)
        if !more { continuation.finish() }
        let asked = ContinuousClock.now
        let played = Locked(PlayedText())
        let task = Task { [engine, synthesizer, report, tap, logger] in
            var started = false
            var trim = LeadingSilenceTrim()
            do {
                for await text in texts {
                    for sentence in SentenceSplitter.split(text) {
                        var sentenceQueued = false
                        try await Self.say(
                            sentence, voice: voice, synthesizer: synthesizer, engine: engine, tap: tap, trim: &trim, waits: !started
                        ) { start, end in
                            if sentenceQueued {
                                played.withLock { $0.extendLast(to: end) }
                            } else {
                                played.withLock { $0.add(sentence, start: start, end: end) }
                                sentenceQueued = true
                                report(.saying(reply: reply, voice: voice.id, text: sentence, first: !started))
                            }
                            guard !started else { return }
                            started = true
                            logger.debug("First audio of the reply queued", metadata: ["reply": "\(reply)", "after": "\(ContinuousClock.now - asked)"])
                            report(.started(reply: reply))
                        }
                    }
                }
                await engine.waitForPlayback()
                try Task.checkCancellation()
                report(.heard(reply: reply, text: played.withLock { $0.all }))
                report(.finished(reply: reply))
            } catch is CancellationError {
                return
            } catch {
                let message = (error as? SynthesisError)?.message ?? "Speech synthesis failed: \(error)"
                logger.warning("\(message)", metadata: ["reply": "\(reply)"])
                report(.failed(reply: reply, code: .speechFailed, message: message))
            }
        }
        let previous = current.withLock { current in
            defer { current = Playing(reply: reply, task: task, texts: continuation, played: played) }
            return current
        }
        previous?.task.cancel()
        previous?.texts.finish()
    }

    /// Synthesizes `sentence` and queues its audio as it comes, less what `trim` drops; `queued`
    /// runs after each chunk that queued audio, with where the chunk starts and ends in the
    /// reply's samples. With `waits`, audio that finds the connection still being made waits for it (up to the
    /// engine's bound). Once a reply has been heard it never waits: a reply whose speaker went
    /// away ends, and the person has the turn.
    private static func say(
        _ sentence: String, voice: Voice, synthesizer: any Synthesizer, engine: PulseAudioEngine, tap: SpeakerTap,
        trim: inout LeadingSilenceTrim, waits: Bool, queued: (_ start: Int, _ end: Int) -> Void
    ) async throws {
        var waits = waits
        for try await chunk in synthesizer.synthesize(sentence, voice: voice) {
            try Task.checkCancellation()
            let samples = trim.trim(Resampler.resample(
                chunk.samples.map { Float($0) / 32768 }, from: chunk.sampleRate, to: AudioFrame.sampleRate
            ))
            guard !samples.isEmpty else { continue }
            var played = engine.play(samples)
            if !played, waits, await engine.waitUntilPlayable() {
                try Task.checkCancellation()
                played = engine.play(samples)
            }
            try Task.checkCancellation()
            guard played else {
                throw SynthesisError(.unavailable, "The sound server is away: the reply could not be played.")
            }
            waits = false
            let end = tap.append(samples)
            queued(end - samples.count, end)
        }
    }

    /// More of `reply`'s text, to be said after what came before; without `more` it is the last,
    /// and the reply ends once all of it has been said.
    func continueText(reply: Int, text: String, more: Bool) {
        guard let texts = current.withLock({ $0?.reply == reply ? $0?.texts : nil }) else { return }
        if !text.isEmpty { texts.yield(text) }
        if !more { texts.finish() }
    }

    /// Says `reply` cannot be said, without touching what is playing: it fails at once.
    func refuse(reply: Int, code: ProtocolError.Code, message: String) {
        report(.failed(reply: reply, code: code, message: message))
    }

    /// Silences the speaker and abandons `reply` (any reply when nil).
    func stop(reply: Int?) {
        let stopped = current.withLock { current -> Playing? in
            guard let playing = current, reply == nil || playing.reply == reply else { return nil }
            current = nil
            return playing
        }
        stopped?.task.cancel()
        stopped?.texts.finish()
        engine.stopPlayback()
        let heard = stopped.map { stopped in stopped.played.withLock { $0.heard(upTo: tap.played) } }
        tap.clear()
        if let stopped {
            report(.heard(reply: stopped.reply, text: heard ?? ""))
            report(.stopped(reply: stopped.reply))
        }
    }
}

/// What the speech player tells the turn machine about a reply.
enum PlaybackReport: Equatable, Sendable {
    case started(reply: Int)
    /// A sentence of the reply begins: its first audio was queued (the first one with `started`).
    case saying(reply: Int, voice: String, text: String, first: Bool)
    /// What of the reply the person heard, by audio time, as it ends (before `stopped` or
    /// `finished`).
    case heard(reply: Int, text: String)
    /// The reply was silenced before its end.
    case stopped(reply: Int)
    case finished(reply: Int)
    /// The reply could not be said: `code` and `message` say why.
    case failed(reply: Int, code: ProtocolError.Code, message: String)
}
