import EarshotAudio
import EarshotBase

/// The audio handed to the speaker, taken back 10 ms at a time as the microphone's frames
/// arrive: the speaker's level meter and the echo gate see it at the pace it plays.
///
/// Frames are taken on the capture thread, so the lock is held only for O(1) work: an append
/// keeps the player's chunk as it is (no copy), and dropped chunks are freed outside the lock.
final class SpeakerTap: Sendable {
    private struct Pending {
        /// The reply's chunks in playing order; those before `chunk` are used up.
        var chunks: [[Float]] = []
        var chunk = 0
        var offset = 0
        /// The reply is paused: the speaker plays nothing, so nothing is taken.
        var paused = false
        /// Samples handed over and taken back since the last `clear`: where the speaker is in
        /// the reply, for what of it was heard.
        var appended = 0
        var taken = 0
    }

    private let pending = Locked(Pending())

    /// Adds a chunk; returns the reply's samples handed over so far, this chunk included.
    @discardableResult
    func append(_ samples: [Float]) -> Int {
        var usedUp: [[Float]] = []
        return pending.withLock { pending in
            guard !samples.isEmpty else { return pending.appended }
            // Everything before was played: start afresh, so the tap holds one reply at most.
            if pending.chunk == pending.chunks.count {
                swap(&usedUp, &pending.chunks)
                pending.chunk = 0
                pending.offset = 0
            }
            pending.chunks.append(samples)
            pending.appended += samples.count
            return pending.appended
        }
    }

    /// Samples of the reply the speaker has played since the last `clear`.
    var played: Int { pending.withLock { $0.taken } }

    func clear() {
        // Taken out under the lock, freed after it, away from the capture thread's wait.
        let dropped = pending.withLock { pending in
            defer { pending = Pending() }
            return pending.chunks
        }
        _ = dropped
    }

    func setPaused(_ paused: Bool) {
        pending.withLock { $0.paused = paused }
    }

    /// The next 10 ms played, stamped `index`; nil when nothing is playing.
    func nextFrame(index: Int) -> AudioFrame? {
        pending.withLock { pending -> AudioFrame? in
            guard !pending.paused, pending.chunk < pending.chunks.count else { return nil }
            var frame = AudioFrame.silence(index: index)
            var filled = 0
            while filled < AudioFrame.sampleCount, pending.chunk < pending.chunks.count {
                let taken = pending.chunks[pending.chunk].withUnsafeBufferPointer { chunk in
                    let count = min(AudioFrame.sampleCount - filled, chunk.count - pending.offset)
                    for position in 0..<count { frame.samples[filled + position] = chunk[pending.offset + position] }
                    return count
                }
                filled += taken
                pending.offset += taken
                pending.taken += taken
                if pending.offset == pending.chunks[pending.chunk].count {
                    pending.chunk += 1
                    pending.offset = 0
                }
            }
            return frame
        }
    }
}
