import EarshotAudio
import EarshotSpeech
import EarshotPulse
import Logging
import Synchronization

/// Speaks replies: splits the text into sentences, synthesizes them in order and queues the
/// audio on the playback stream as it arrives, so the first sentence plays while the rest is
/// still being made. `stop` silences the speaker at once.
///
/// `speak` and `stop` are called inside the session's pipeline lock: they start or cancel a
/// task and return without waiting.
final class SpeechPlayer: Sendable {
    private let engine: PulseAudioEngine
    private let synthesizer: any Synthesizer
    private let report: @Sendable (PlaybackReport) -> Void
    private let tap: SpeakerTap
    private let logger: Logger
    private let current = Mutex<(reply: Int, task: Task<Void, Never>)?>(nil)

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

    func speak(reply: Int, text: String, voice: Voice) {
        let task = Task { [engine, synthesizer, report, tap, logger] in
            var started = false
            do {
                for sentence in SentenceSplitter.split(text) {
                    for try await chunk in synthesizer.synthesize(sentence, voice: voice) {
                        try Task.checkCancellation()
                        let samples = Resampler.resample(
                            chunk.samples.map { Float($0) / 32768 }, from: chunk.sampleRate, to: AudioFrame.sampleRate
                        )
                        guard engine.play(samples) else {
                            throw SynthesisError(.unavailable, "The sound server is away: the reply could not be played.")
                        }
                        tap.append(samples)
                        if !started {
                            started = true
                            report(.started(reply: reply))
                        }
                    }
                }
                await engine.waitForPlayback()
                try Task.checkCancellation()
                report(.finished(reply: reply))
            } catch is CancellationError {
                return
            } catch {
                let message = (error as? SynthesisError)?.message ?? "Speech synthesis failed: \(error)"
                logger.warning("\(message)", metadata: ["reply": "\(reply)"])
                report(.failed(reply: reply, message: message))
            }
        }
        let previous = current.withLock { current in
            defer { current = (reply, task) }
            return current
        }
        previous?.task.cancel()
    }

    /// Silences the speaker and abandons `reply` (any reply when nil).
    func stop(reply: Int?) {
        let stopped = current.withLock { current -> Task<Void, Never>? in
            guard let playing = current, reply == nil || playing.reply == reply else { return nil }
            current = nil
            return playing.task
        }
        stopped?.cancel()
        engine.stopPlayback()
        tap.clear()
    }
}
