import CPulse

// Ducking: the playback stream's own volume on the server (its sink input), so speech gets
// quieter at once, without touching the sink's volume that the user set.
extension PulseSession {
    /// The playback stream's volume for `playbackGain`: `pa_sw_volume_from_linear` keeps the
    /// gain linear in amplitude (0.25 is -12 dB), not PulseAudio's cubic slider scale.
    var playbackVolume: pa_volume_t { pa_sw_volume_from_linear(Double(playbackGain)) }

    func setPlaybackGain(_ gain: Float) {
        playbackGain = gain
        applyPlaybackGain()
    }

    /// Sends `playbackGain` to the server without waiting; a stream not yet ready gets it when it
    /// connects or becomes ready.
    func applyPlaybackGain() {
        guard let context, let stream = playbackStream, stream.isReady, let index = stream.serverIndex else { return }
        let gain = playbackGain
        let query = PulseQuery((), operation: "set the playback volume to \(gain)") { [logger] result in
            if case .failure(let error) = result {
                logger.warning("could not set the playback volume", metadata: ["error": "\(error)"])
            }
        }
        context.setSinkInputVolume(index, playbackVolume, channels: Self.playbackSampleSpec.channels, query)
    }
}
