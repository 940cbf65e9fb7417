import Dispatch
import EarshotAudio
import EarshotConversation
import EarshotSpeech

/// The wake phrase spotter on a queue of its own: the pipeline's wake work arrives from the
/// capture thread (its frames in batches), is decoded here, and the frame the phrase was heard
/// in goes back to the pipeline. The capture thread only hands work on.
final class WakeSpotting: @unchecked Sendable {
    // @unchecked: `listening` is read and written only on `queue`.
    private let queue = DispatchQueue(label: "earshot.wake", qos: .userInitiated)
    private var listening: WakeListening?

    /// Loads the spotter `settings` describe (about 0.2 s, on the queue), in place of the one
    /// before; nil: none. A spotter that cannot load is reported through `failed`.
    func load(_ settings: WakeSettings?, failed: @escaping @Sendable (SpeechError) -> Void) {
        queue.async {
            self.listening?.end()
            self.listening = nil
            guard let settings else { return }
            do throws(SpeechError) {
                let spotter = try settings.makeSpotter()
                self.listening = WakeListening(spotter: spotter)
            } catch {
                failed(error)
            }
        }
    }

    /// Does the pipeline's wake work (the start or end of a stretch of speech, with its audio).
    func perform(_ work: SpeechWork, heard: @escaping @Sendable (Int) -> Void, failed: @escaping @Sendable (SpeechError) -> Void) {
        queue.async {
            if let index = self.listening?.perform(work, failure: failed) { heard(index) }
        }
    }

    /// Feeds the next frames of the stretch under way.
    func feed(_ frames: [AudioFrame], heard: @escaping @Sendable (Int) -> Void, failed: @escaping @Sendable (SpeechError) -> Void) {
        queue.async {
            if let index = self.listening?.feed(frames, failure: failed) { heard(index) }
        }
    }
}
