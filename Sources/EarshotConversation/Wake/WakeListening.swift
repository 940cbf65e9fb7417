public import EarshotAudio
public import EarshotSpeech

/// Carries out the pipeline's wake work with a phrase spotter, a frame at a time, so the frame
/// the phrase was heard in is the same wherever the work is done: at once in `earshot replay`,
/// on the spotter's queue in the daemon. Not thread-safe: use it where the spotter is used.
public final class WakeListening {
    public let spotter: any WakePhraseSpotter
    private var listening = false

    public init(spotter: any WakePhraseSpotter) {
        self.spotter = spotter
    }

    /// Does `work` if it is wake work; returns the index of the frame whose end completed the
    /// phrase, if it was heard. A spotter's failure ends the stretch (`failure` hears why).
    public func perform(_ work: SpeechWork, failure: (SpeechError) -> Void = { _ in }) -> Int? {
        switch work {
        case .beginWakeAudio(let audio):
            do {
                try spotter.beginSpeech()
                listening = true
            } catch {
                failure(error)
                return nil
            }
            return feed(audio, failure: failure)
        case .wakeAudio(let frame):
            return feed([frame], failure: failure)
        case .endWakeAudio:
            end()
            return nil
        case .effect, .beginUtterance, .utteranceAudio, .wakeCue:
            return nil
        }
    }

    /// Feeds the stretch's next frames; returns the index of the frame that completed the phrase.
    public func feed(_ frames: [AudioFrame], failure: (SpeechError) -> Void = { _ in }) -> Int? {
        guard listening else { return nil }
        for frame in frames {
            do {
                if try spotter.hears(PCM16.samples(of: frame)) {
                    listening = false
                    return frame.index
                }
            } catch {
                end()
                failure(error)
                return nil
            }
        }
        return nil
    }

    /// The stretch ended.
    public func end() {
        guard listening else { return }
        listening = false
        spotter.endSpeech()
    }
}
