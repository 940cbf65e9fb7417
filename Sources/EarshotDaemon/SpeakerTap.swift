import EarshotAudio
import Synchronization

/// The audio handed to the speaker, taken back 10 ms at a time as the microphone's frames
/// arrive: the speaker's level meter and the echo gate see it at the pace it plays.
final class SpeakerTap: Sendable {
    private struct Pending {
        var samples: [Float] = []
        var offset = 0
        /// The reply is paused: the speaker plays nothing, so nothing is taken.
        var paused = false
    }

    private let pending = Mutex(Pending())

    func append(_ samples: [Float]) {
        pending.withLock { pending in
            // Drop what has been taken before growing, so the buffer stays one reply long.
            if pending.offset > 0, pending.offset >= pending.samples.count / 2 {
                pending.samples.removeFirst(pending.offset)
                pending.offset = 0
            }
            pending.samples += samples
        }
    }

    func clear() {
        pending.withLock { $0 = Pending() }
    }

    func setPaused(_ paused: Bool) {
        pending.withLock { $0.paused = paused }
    }

    /// The next 10 ms played, stamped `index`; nil when nothing is playing.
    func nextFrame(index: Int) -> AudioFrame? {
        pending.withLock { pending -> AudioFrame? in
            guard !pending.paused else { return nil }
            guard pending.offset < pending.samples.count else {
                if !pending.samples.isEmpty { pending = Pending() }
                return nil
            }
            var frame = AudioFrame.silence(index: index)
            let count = min(AudioFrame.sampleCount, pending.samples.count - pending.offset)
            for position in 0..<count { frame.samples[position] = pending.samples[pending.offset + position] }
            pending.offset += count
            return frame
        }
    }
}
