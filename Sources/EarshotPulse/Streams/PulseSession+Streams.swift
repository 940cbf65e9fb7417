import CPulse
import EarshotAudio
import Glibc

// The record stream: 16 kHz mono s16le in 10 ms fragments, cut into frames for the ring.
extension PulseSession {
    static let captureSampleSpec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(AudioFrame.sampleRate), channels: 1)

    /// One frame's worth of bytes per fragment: the server wakes the engine 100 times a second.
    static let captureBufferAttributes = pa_buffer_attr(
        maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max,
        fragsize: UInt32(AudioFrame.sampleCount * MemoryLayout<Int16>.size)
    )

    func openRecordStream(device: String?) {
        guard let context else { return }
        do {
            let stream = try PulseStream(
                context: context, name: "\(configuration.applicationName) microphone",
                sampleSpec: Self.captureSampleSpec
            )
            recordStream = stream
            let callbacks = PulseStream.Callbacks(
                state: { _, userdata in PulseSession.from(userdata)?.recordStreamStateChanged() },
                moved: { _, userdata in PulseSession.from(userdata)?.streamMoved(.capture) },
                request: { _, readable, userdata in PulseSession.from(userdata)?.captureAvailable(readable) }
            )
            try stream.connect(
                PA_STREAM_RECORD, device: device, bufferAttributes: Self.captureBufferAttributes,
                flags: PA_STREAM_ADJUST_LATENCY, callbacks: callbacks, userdata: userdata
            )
        } catch {
            recordStream?.close()
            recordStream = nil
            streamFailed(.capture, error)
        }
    }

    /// Opens, closes or silences the microphone. Closed or silenced, the record stream is corked,
    /// so the desktop shows the microphone as unused; silenced, frames of silence keep coming in
    /// real time, so audio time and what hangs on it (timeouts, the speaker's levels) run on.
    func setMicrophone(_ state: MicrophoneState) {
        guard state != microphone else { return }
        if microphone == .open { assembler.discardPartialFrame() }
        assembler.captureInterrupted()
        microphone = state
        recordStream?.cork(state != .open)
        if state == .silenced {
            silence = (ContinuousClock.now, 0)
            armSilenceTimer()
        } else {
            silence = nil
        }
    }

    private func armSilenceTimer() {
        let period = Duration.milliseconds(Int(AudioFrame.duration * 1000))
        if let silenceTimer {
            mainloop.restartTimer(silenceTimer, after: period)
        } else {
            silenceTimer = mainloop.makeTimer(after: period, callback: { _, _, _, userdata in
                PulseSession.from(userdata)?.silenceTimerFired()
            }, userdata: userdata)
        }
    }

    /// Delivers the frames of silence due by now, counted from when the silence began, so the
    /// timer's lateness never drifts audio time away from the wall clock.
    private func silenceTimerFired() {
        guard var current = silence else { return }
        let due = Int((ContinuousClock.now - current.since) / .milliseconds(Int(AudioFrame.duration * 1000)))
        assembler.appendSilentFrames(due - current.frames)
        if due > current.frames, assembler.handler == nil { framesAvailable.signal() }
        current.frames = due
        silence = current
        armSilenceTimer()
    }

    /// Well inside the shortest stall limit (a 1 s watchdog): a beat as long as the limit let
    /// the watchdog's sampling read a live loop as stuck now and then.
    static let heartbeatInterval = Duration.milliseconds(250)

    func startHeartbeat() {
        guard heartbeatTimer == nil else { return }
        heartbeatTimer = mainloop.makeTimer(after: Self.heartbeatInterval, callback: { _, _, _, userdata in
            guard let session = PulseSession.from(userdata), let timer = session.heartbeatTimer else { return }
            session.heartbeats.add(1, ordering: .relaxed)
            session.mainloop.restartTimer(timer, after: PulseSession.heartbeatInterval)
        }, userdata: userdata)
    }

    /// Frees the timers; the engine is stopping.
    func stopClocks() {
        silence = nil
        for timer in [silenceTimer, heartbeatTimer, connectionWaitTimer].compactMap(\.self) { mainloop.freeTimer(timer) }
        silenceTimer = nil
        heartbeatTimer = nil
        connectionWaitTimer = nil
    }

    private func recordStreamStateChanged() {
        guard let stream = recordStream else { return }
        switch stream.state {
        case PA_STREAM_READY:
            assembler.captureInterrupted()
            if microphone != .open { stream.cork(true) }
            streamReady(.capture, on: stream.deviceName)
        case PA_STREAM_FAILED, PA_STREAM_TERMINATED:
            // When the whole server goes, the context's callback has already torn everything down.
            guard context?.isReady == true else { return }
            let device = routing.capture.openedOn
            let error = stream.lastError(while: "capture from \(device.map { "\"\($0)\"" } ?? "the default source")")
            stream.close()
            recordStream = nil
            assembler.discardPartialFrame()
            streamFailed(.capture, error)
        default:
            break
        }
    }

    /// The audio path: each completed frame goes to the frame handler, here on this thread (or
    /// into the ring, waking its consumer). No allocation, no lock, no logging.
    private func captureAvailable(_ readable: Int) {
        guard let stream = recordStream else { return }
        var completed = 0
        let assembler = self.assembler
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        assembler.noteFragmentArrival(atNanoseconds: now.tv_sec * 1_000_000_000 + now.tv_nsec)
        stream.readAvailable(readable) { bytes, length in
            if let bytes {
                completed += assembler.append(bytes)
            } else {
                completed += assembler.appendHole(byteCount: length)
            }
        }
        if completed > 0, assembler.handler == nil { framesAvailable.signal() }
    }
}

// The playback stream: 16 kHz mono float samples for cues and speech, queued here and written
// as the server asks for them, so the server buffers only `playbackLatency` ahead and a stop is
// heard at once.
extension PulseSession {
    static let playbackSampleSpec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(AudioFrame.sampleRate), channels: 1)

    /// The server buffers `latency` ahead of the speaker, and starts playing once one frame is
    /// there (at first, and again after running dry) rather than the default, the whole target:
    /// a reply's first piece is heard as soon as it is written, however short it is.
    static func playbackBufferAttributes(latency: Duration) -> pa_buffer_attr {
        let sampleBytes = UInt32(MemoryLayout<Float>.size)
        let target = UInt32(Double(AudioFrame.sampleRate) * (latency / .seconds(1))) * sampleBytes
        let frame = UInt32(AudioFrame.sampleCount) * sampleBytes
        return pa_buffer_attr(
            maxlength: UInt32.max, tlength: target, prebuf: min(frame, target), minreq: UInt32.max, fragsize: UInt32.max
        )
    }

    func openPlaybackStream(device: String?) {
        guard let context else { return }
        do {
            let stream = try PulseStream(
                context: context, name: "\(configuration.applicationName) voice", sampleSpec: Self.playbackSampleSpec
            )
            playbackStream = stream
            isPlaybackCorked = false
            let attributes = Self.playbackBufferAttributes(latency: configuration.playbackLatency)
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
            streamFailed(.playback, error)
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
            let device = routing.playback.openedOn
            let error = stream.lastError(while: "play on \(device.map { "\"\($0)\"" } ?? "the default sink")")
            abandonPlayback()
            stream.close()
            playbackStream = nil
            streamFailed(.playback, error)
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

/// Samples waiting to be written to the playback stream, in the order they were queued.
struct PlaybackQueue {
    private var chunks: [[Float]] = []
    /// Samples of `chunks[0]` already written.
    private var offset = 0

    var isEmpty: Bool { chunks.isEmpty }

    mutating func append(_ samples: [Float]) {
        if !samples.isEmpty { chunks.append(samples) }
    }

    mutating func removeAll() {
        chunks.removeAll()
        offset = 0
    }

    /// Hands up to `limit` of the oldest samples to `body` in one contiguous piece and removes
    /// them if `body` succeeds; returns how many were handed over.
    mutating func consume<Failure: Error>(
        upTo limit: Int, _ body: (UnsafeBufferPointer<Float>) throws(Failure) -> Void
    ) throws(Failure) -> Int {
        guard let first = chunks.first, limit > 0 else { return 0 }
        let count = min(limit, first.count - offset)
        try first.withUnsafeBufferPointer { (samples) throws(Failure) in
            try body(UnsafeBufferPointer(rebasing: samples[offset..<(offset + count)]))
        }
        offset += count
        if offset == first.count {
            chunks.removeFirst()
            offset = 0
        }
        return count
    }
}
