import CPulse
import EarshotAudio

// The playback stream: 16 kHz mono float samples for cues and speech, queued here and written
// as the server asks for them, so the server buffers only `playbackLatency` ahead and a stop is
// heard at once.
extension PulseSession {
    static let playbackSampleSpec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(AudioFrame.sampleRate), channels: 1)

    func openPlaybackStream(device: String?) {
        guard let context else { return }
        do {
            let stream = try PulseStream(
                context: context, name: "\(configuration.applicationName) voice", sampleSpec: Self.playbackSampleSpec
            )
            playbackStream = stream
            playbackOpenedOn = device
            isPlaybackCorked = false
            let targetSamples = Double(AudioFrame.sampleRate) * (configuration.playbackLatency / .seconds(1))
            let attributes = pa_buffer_attr(
                maxlength: UInt32.max, tlength: UInt32(targetSamples) * UInt32(MemoryLayout<Float>.size),
                prebuf: UInt32.max, minreq: UInt32.max, fragsize: UInt32.max
            )
            let callbacks = PulseStream.Callbacks(
                state: { _, userdata in PulseSession.from(userdata)?.playbackStreamStateChanged() },
                moved: { _, userdata in PulseSession.from(userdata)?.streamMoved(.playback) },
                request: { _, _, userdata in PulseSession.from(userdata)?.feedPlayback() }
            )
            // Relative volume: on a server with flat volumes, the gain must not raise the sink.
            let flags = pa_stream_flags_t(rawValue: PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_RELATIVE_VOLUME.rawValue)
            playbackStreamGain = playbackGain
            try stream.connect(
                PA_STREAM_PLAYBACK, device: device, bufferAttributes: attributes,
                flags: flags, volume: playbackVolume, callbacks: callbacks, userdata: userdata
            )
        } catch {
            playbackStream?.close()
            playbackStream = nil
            streamFailed(.playback, error, device: device)
        }
    }

    private func playbackStreamStateChanged() {
        guard let stream = playbackStream else { return }
        switch stream.state {
        case PA_STREAM_READY:
            if playbackStreamGain != playbackGain { applyPlaybackGain() }
            streamReady(.playback, on: stream.deviceName)
        case PA_STREAM_FAILED, PA_STREAM_TERMINATED:
            guard context?.isReady == true else { return }
            let device = playbackOpenedOn
            let error = stream.lastError(while: "play on \(device.map { "\"\($0)\"" } ?? "the default sink")")
            abandonPlayback()
            stream.close()
            playbackStream = nil
            streamFailed(.playback, error, device: device)
        default:
            break
        }
    }

    /// Queues `samples`; false when there is no playback stream to play them on.
    func enqueuePlayback(_ samples: [Float]) -> Bool {
        guard let stream = playbackStream, stream.isReady else { return false }
        guard !samples.isEmpty else { return true }
        playbackQueue.append(samples)
        playbackGeneration += 1
        hasUnfinishedPlayback = true
        if isPlaybackCorked, !isPlaybackPaused {
            stream.cork(false)
            isPlaybackCorked = false
        }
        feedPlayback()
        return true
    }

    /// Writes as much of the queue as the server asked for; once all is written, asks to hear
    /// when it has been played.
    func feedPlayback() {
        guard let stream = playbackStream, stream.isReady, !isPlaybackPaused else { return }
        var room = stream.writableSize / MemoryLayout<Float>.size
        do {
            while room > 0, !playbackQueue.isEmpty {
                room -= try playbackQueue.consume(upTo: room) { (samples) throws(PulseError) in
                    try stream.write(UnsafeRawBufferPointer(samples))
                }
            }
        } catch {
            logger.warning("playback write failed", metadata: ["error": "\(error)"])
            abandonPlayback()
            return
        }
        guard playbackQueue.isEmpty, hasUnfinishedPlayback, drainRequestedGeneration != playbackGeneration else { return }
        let generation = playbackGeneration
        drainRequestedGeneration = generation
        stream.drain(PulseQuery((), operation: "finish playing") { [unowned self] result in
            guard generation == playbackGeneration, hasUnfinishedPlayback else { return }
            if case .failure(let error) = result { logger.debug("drain failed", metadata: ["error": "\(error)"]) }
            finishPlayback()
            emit(.playbackFinished)
        })
    }

    /// Silences the speaker at once: pause the stream and drop what the server holds.
    func stopPlaybackNow() {
        isPlaybackPaused = false
        playbackQueue.removeAll()
        playbackGeneration += 1
        if let stream = playbackStream, stream.isReady {
            stream.cork(true)
            isPlaybackCorked = true
            stream.flush()
        }
        finishPlayback()
    }

    /// Pauses (corks) or resumes the reply where it was: nothing queued is lost.
    func setPlaybackPaused(_ paused: Bool) {
        guard paused != isPlaybackPaused else { return }
        isPlaybackPaused = paused
        guard let stream = playbackStream, stream.isReady else { return }
        if paused {
            stream.cork(true)
            isPlaybackCorked = true
        } else if hasUnfinishedPlayback {
            stream.cork(false)
            isPlaybackCorked = false
            feedPlayback()
        }
    }

    /// Forgets queued audio (the stream is gone or broken) and releases anyone waiting on it.
    func abandonPlayback() {
        playbackQueue.removeAll()
        playbackGeneration += 1
        finishPlayback()
    }

    func waitForPlayback(_ continuation: CheckedContinuation<Void, Never>) {
        if hasUnfinishedPlayback {
            playbackWaiters.append(continuation)
        } else {
            continuation.resume()
        }
    }

    private func finishPlayback() {
        hasUnfinishedPlayback = false
        let waiters = playbackWaiters
        playbackWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }
}
