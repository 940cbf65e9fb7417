import CPulse
import EarshotAudio

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
                request: { _, _, userdata in PulseSession.from(userdata)?.captureAvailable() }
            )
            captureOpenedOn = device
            try stream.connect(
                PA_STREAM_RECORD, device: device, bufferAttributes: Self.captureBufferAttributes,
                flags: PA_STREAM_ADJUST_LATENCY, callbacks: callbacks, userdata: userdata
            )
        } catch {
            recordStream?.close()
            recordStream = nil
            streamFailed(.capture, error, device: device)
        }
    }

    /// Pauses or resumes capture; a paused stream delivers nothing and the next frame starts
    /// afresh.
    func setCaptureWanted(_ wanted: Bool) {
        guard wanted != captureWanted else { return }
        captureWanted = wanted
        if !wanted { assembler.discardPartialFrame() }
        recordStream?.cork(!wanted)
    }

    private func recordStreamStateChanged() {
        guard let stream = recordStream else { return }
        switch stream.state {
        case PA_STREAM_READY:
            if !captureWanted { stream.cork(true) }
            streamReady(.capture, on: stream.deviceName)
        case PA_STREAM_FAILED, PA_STREAM_TERMINATED:
            // When the whole server goes, the context's callback has already torn everything down.
            guard context?.isReady == true else { return }
            let device = captureOpenedOn
            let error = stream.lastError(while: "capture from \(device.map { "\"\($0)\"" } ?? "the default source")")
            stream.close()
            recordStream = nil
            assembler.discardPartialFrame()
            streamFailed(.capture, error, device: device)
        default:
            break
        }
    }

    /// The audio path: copy what arrived into the ring, wake the consumer, return. No
    /// allocation, no lock, no logging.
    private func captureAvailable() {
        guard let stream = recordStream else { return }
        var completed = 0
        let assembler = self.assembler
        stream.readAvailable { bytes, length in
            if let bytes {
                completed += assembler.append(bytes)
            } else {
                completed += assembler.appendHole(byteCount: length)
            }
        }
        if completed > 0 { framesAvailable.signal() }
    }
}
