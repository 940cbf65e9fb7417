extension PulseAudioEngine {
    /// Whether capture is wanted (set by `setCapturing`): while connected, frames should arrive.
    public var isCapturing: Bool {
        mainloop.withLock { session.captureWanted }
    }
}
