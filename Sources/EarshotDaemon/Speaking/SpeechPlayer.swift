import EarshotAudio
import EarshotBase
import EarshotProtocol
import EarshotPulse
import EarshotSpeech
import Logging

/// Speaks replies: splits the text into sentences, synthesizes them in order and queues the
/// audio on the playback stream as it arrives, so the first sentence plays while the rest is
/// still being made, and a reply begins at its first sound (`LeadingSilenceTrim`). `stop`
/// silences the speaker at once. A held reply (the turn may not be over) has its first sentence
/// made into memory and waits: `release` plays it at once, `stop` drops it unheard.
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
        /// What keeps a held reply unheard until its turn's end is confirmed; nil when not held.
        let hold: PlaybackHold?
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
    /// ``continueText(reply:text:more:)``; the first sentence plays meanwhile. With `held`, the
    /// first sentence is made but not played until ``release(reply:)``.
    func speak(reply: Int, text: String, voice: Voice, more: Bool = false, held: Bool = false) {
        let (texts, continuation) = AsyncStream.makeStream(of: String.self)
        continuation.yield(text)
        if !more { continuation.finish() }
        let asked = ContinuousClock.now
        let played = Locked(PlayedText())
        let hold = held ? PlaybackHold() : nil
        let task = Task { [engine, synthesizer, report, tap, logger] in
            var started = false
            var trim = LeadingSilenceTrim()
            var ahead: [[Float]]?
            do {
                for await text in texts {
                    for sentence in SentenceSplitter.split(text) {
                        var sentenceQueued = false
                        if let hold, !started, ahead == nil {
                            // Made now, heard only once the end of the turn is confirmed.
                            ahead = try await Self.synthesize(sentence, voice: voice, synthesizer: synthesizer, trim: &trim)
                            await hold.waitForRelease()
                            try Task.checkCancellation()
                        }
                        try await Self.say(
                            sentence, voice: voice, synthesizer: synthesizer, engine: engine, tap: tap, trim: &trim, waits: !started,
                            ahead: ahead.take()
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
            defer { current = Playing(reply: reply, task: task, texts: continuation, played: played, hold: hold) }
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
    /// `ahead`, when given, is the sentence's audio made beforehand: it is queued as it is.
    private static func say(
        _ sentence: String, voice: Voice, synthesizer: any Synthesizer, engine: PulseAudioEngine, tap: SpeakerTap,
        trim: inout LeadingSilenceTrim, waits: Bool, ahead: [[Float]]? = nil, queued: (_ start: Int, _ end: Int) -> Void
    ) async throws {
        var waits = waits
        if let ahead {
            for samples in ahead { try await queue(samples, engine: engine, tap: tap, waits: &waits, queued: queued) }
            return
        }
        for try await chunk in synthesizer.synthesize(sentence, voice: voice) {
            try Task.checkCancellation()
            let samples = trim.trim(Resampler.resample(
                chunk.samples.map { Float($0) / 32768 }, from: chunk.sampleRate, to: AudioFrame.sampleRate
            ))
            guard !samples.isEmpty else { continue }
            try await queue(samples, engine: engine, tap: tap, waits: &waits, queued: queued)
        }
    }

    /// Synthesizes `sentence` into memory, less what `trim` drops: a held reply's first sentence.
    private static func synthesize(
        _ sentence: String, voice: Voice, synthesizer: any Synthesizer, trim: inout LeadingSilenceTrim
    ) async throws -> [[Float]] {
        var audio: [[Float]] = []
        for try await chunk in synthesizer.synthesize(sentence, voice: voice) {
            try Task.checkCancellation()
            let samples = trim.trim(Resampler.resample(
                chunk.samples.map { Float($0) / 32768 }, from: chunk.sampleRate, to: AudioFrame.sampleRate
            ))
            if !samples.isEmpty { audio.append(samples) }
        }
        return audio
    }

    /// Queues `samples` on the speaker (see ``say``), then runs `queued` with where they start and
    /// end in the reply's samples.
    private static func queue(
        _ samples: [Float], engine: PulseAudioEngine, tap: SpeakerTap, waits: inout Bool, queued: (_ start: Int, _ end: Int) -> Void
    ) async throws {
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

    /// Plays the held `reply` now: the end of its turn is confirmed.
    func release(reply: Int) {
        current.withLock { $0?.reply == reply ? $0?.hold : nil }?.release()
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
        // A reply still held was never heard: there is nothing to silence or to tell.
        if let hold = stopped?.hold, !hold.isReleased { return }
        engine.stopPlayback()
        let heard = stopped.map { stopped in stopped.played.withLock { $0.heard(upTo: tap.played) } }
        tap.clear()
        if let stopped {
            report(.heard(reply: stopped.reply, text: heard ?? ""))
            report(.stopped(reply: stopped.reply))
        }
    }
}

/// Keeps a held reply unheard until it is released; cancelling the waiting task lets it go too.
final class PlaybackHold: Sendable {
    private let state = Locked<(released: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    var isReleased: Bool { state.withLock { $0.released } }

    func release() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.released = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Returns once released, or once the calling task is cancelled.
    func waitForRelease() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let released = state.withLock { state -> Bool in
                    if state.released { return true }
                    state.waiter = continuation
                    return false
                }
                if released { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}

extension Optional {
    /// The value, leaving nil in its place.
    fileprivate mutating func take() -> Wrapped? {
        defer { self = nil }
        return self
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
