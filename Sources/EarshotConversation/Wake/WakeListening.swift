public import EarshotAudio
public import EarshotSpeech

/// Carries out the pipeline's wake work with a phrase spotter, a frame at a time, so the frame
/// the phrase was heard in is the same wherever the work is done: at once in `earshot replay`,
/// on the spotter's queue in the daemon. Not thread-safe: use it where the spotter is used.
public final class WakeListening {
    public let spotter: any WakePhraseSpotter
    private var listening = false
    private var lastFrame: Int?
    /// Whether the phrase last heard was heard by the spotter's closer look at the end of a
    /// stretch (``WakePhraseSpotter/closeSpeech()``) rather than as the audio came.
    public private(set) var heardAtStretchEnd = false

    public init(spotter: any WakePhraseSpotter) {
        self.spotter = spotter
    }

    /// Does `work` if it is wake work; returns the index of the frame whose end completed the
    /// phrase, if it was heard (at the end of a stretch: its last frame). A spotter's failure
    /// ends the stretch (`failure` hears why).
    public func perform(_ work: SpeechWork, failure: (SpeechError) -> Void = { _ in }) -> Int? {
        switch work {
        case .beginWakeAudio(let audio):
            do {
                try spotter.beginSpeech()
                listening = true
                lastFrame = nil
            } catch {
                failure(error)
                return nil
            }
            return feed(audio, failure: failure)
        case .wakeAudio(let frame):
            return feed([frame], failure: failure)
        case .endWakeAudio:
            return close(failure: failure)
        case .effect, .beginUtterance, .utteranceAudio, .utterancePaused, .wakeCue:
            return nil
        }
    }

    /// Feeds the stretch's next frames; returns the index of the frame that completed the phrase.
    public func feed(_ frames: [AudioFrame], failure: (SpeechError) -> Void = { _ in }) -> Int? {
        guard listening else { return nil }
        for frame in frames {
            do {
                lastFrame = frame.index
                if try spotter.hears(PCM16.samples(of: frame)) {
                    listening = false
                    heardAtStretchEnd = false
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

    /// The stretch ended as speech does; returns its last frame's index if the spotter's closer
    /// look hears the phrase in it.
    private func close(failure: (SpeechError) -> Void) -> Int? {
        guard listening else { return nil }
        listening = false
        do {
            guard try spotter.closeSpeech(), let lastFrame else { return nil }
            heardAtStretchEnd = true
            return lastFrame
        } catch {
            failure(error)
            return nil
        }
    }

    /// The stretch is dropped.
    public func end() {
        guard listening else { return }
        listening = false
        spotter.endSpeech()
    }
}
