public import EarshotAudio

extension VoiceActivityDetector {
    /// Runs the detector over a whole clip from a fresh start and returns one verdict per frame,
    /// in frame order (the last `lookaheadFrames` come from `finish(after:)`).
    public mutating func verdicts(for clip: AudioClip) -> [VoiceActivity] {
        reset()
        var out: [VoiceActivity] = []
        out.reserveCapacity(clip.frameCount)
        for frame in clip.frames {
            if let verdict = process(frame) { out.append(verdict) }
        }
        if clip.frameCount > 0 { out += finish(after: clip.frameCount - 1) }
        return out
    }
}
