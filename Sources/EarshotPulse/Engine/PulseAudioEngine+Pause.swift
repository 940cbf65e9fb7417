extension PulseAudioEngine {
    /// Pauses the speaker at once, keeping what is queued (true), or resumes where it paused
    /// (false): a possible interruption silences the reply without losing it.
    public func pausePlayback(_ paused: Bool) {
        mainloop.withLock { session.setPlaybackPaused(paused) }
    }
}
