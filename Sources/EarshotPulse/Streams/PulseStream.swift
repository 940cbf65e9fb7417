import CPulse

/// Owner of a `pa_stream`: one record or playback stream on a context.
///
/// Used only on the mainloop thread or with the mainloop lock held. `close()` clears the
/// callbacks, disconnects and drops the reference, once.
final class PulseStream {
    private(set) var pointer: OpaquePointer?
    /// The context's handle, for `pa_context_errno` (the context outlives its streams).
    private let context: OpaquePointer

    init(context: PulseContext, name: String, sampleSpec: pa_sample_spec) throws(PulseError) {
        guard let contextPointer = context.pointer else {
            throw PulseError(.badState, while: "create the stream \"\(name)\"")
        }
        var spec = sampleSpec
        guard let pointer = pa_stream_new(contextPointer, name, &spec, nil) else {
            throw PulseError(lastErrorOf: contextPointer, while: "create the stream \"\(name)\"")
        }
        self.pointer = pointer
        self.context = contextPointer
    }

    deinit { close() }

    struct Callbacks {
        var state: pa_stream_notify_cb_t
        var moved: pa_stream_notify_cb_t
        /// Data to read (record) or room to write (playback).
        var request: pa_stream_request_cb_t?
    }

    /// Installs `callbacks` and connects to `device` (nil: the server's default); a playback
    /// stream starts at `volume` when one is given.
    func connect(
        _ direction: pa_stream_direction_t, device: String?, bufferAttributes: pa_buffer_attr,
        flags: pa_stream_flags_t, volume: pa_volume_t? = nil, callbacks: Callbacks, userdata: UnsafeMutableRawPointer
    ) throws(PulseError) {
        guard let pointer else { throw PulseError(.badState, while: "connect a closed stream") }
        pa_stream_set_state_callback(pointer, callbacks.state, userdata)
        pa_stream_set_moved_callback(pointer, callbacks.moved, userdata)
        var attributes = bufferAttributes
        let result: Int32
        if direction == PA_STREAM_RECORD {
            pa_stream_set_read_callback(pointer, callbacks.request, userdata)
            result = pa_stream_connect_record(pointer, device, &attributes, flags)
        } else {
            pa_stream_set_write_callback(pointer, callbacks.request, userdata)
            if let volume, let spec = pa_stream_get_sample_spec(pointer) {
                var levels = pa_cvolume()
                pa_cvolume_set(&levels, UInt32(spec.pointee.channels), volume)
                result = pa_stream_connect_playback(pointer, device, &attributes, flags, &levels, nil)
            } else {
                result = pa_stream_connect_playback(pointer, device, &attributes, flags, nil, nil)
            }
        }
        if result < 0 {
            throw PulseError(lastErrorOf: context, while: "connect to \(device ?? "the default device")")
        }
    }

    var state: pa_stream_state_t {
        pointer.map { pa_stream_get_state($0) } ?? PA_STREAM_TERMINATED
    }

    var isReady: Bool { state == PA_STREAM_READY }

    /// The name of the source or sink the stream is connected to (once ready).
    var deviceName: String? {
        pointer.flatMap { pa_stream_get_device_name($0) }.map { String(cString: $0) }
    }

    /// The stream's index on the server (a source output or sink input), for moving it.
    var serverIndex: UInt32? {
        let index = pointer.map { pa_stream_get_index($0) } ?? UInt32.max
        return index == UInt32.max ? nil : index
    }

    func lastError(while operation: String) -> PulseError {
        PulseError(lastErrorOf: context, while: operation)
    }

    // MARK: Record

    /// Hands the `readable` bytes the server has delivered (as the read callback reports them)
    /// to `body`, fragment by fragment, and releases them: the bytes, or nil and a length for a
    /// hole (audio the server lost). Runs on the mainloop thread without allocating.
    ///
    /// It stops once `readable` bytes were taken rather than peeking until nothing is left: each
    /// libpulse call checks for a fork with a `getpid` system call, and that last peek would be
    /// one more a packet.
    @inline(__always)
    func readAvailable(_ readable: Int, _ body: (UnsafeRawBufferPointer?, Int) -> Void) {
        guard let pointer else { return }
        var taken = 0
        while taken < readable {
            var data: UnsafeRawPointer?
            var length = 0
            guard pa_stream_peek(pointer, &data, &length) == 0, length > 0 else { return }
            body(data.map { UnsafeRawBufferPointer(start: $0, count: length) }, length)
            pa_stream_drop(pointer)
            taken += length
        }
    }

    // MARK: Playback

    /// Bytes the server would take now without growing its buffer beyond the target.
    var writableSize: Int {
        guard let pointer else { return 0 }
        return max(0, pa_stream_writable_size(pointer))  // (size_t) -1, an error, reads as -1
    }

    /// Sends `bytes` (libpulse copies them).
    func write(_ bytes: UnsafeRawBufferPointer) throws(PulseError) {
        guard let pointer, let base = bytes.baseAddress else { return }
        if pa_stream_write(pointer, base, bytes.count, nil, 0, PA_SEEK_RELATIVE) < 0 {
            throw lastError(while: "write to the playback stream")
        }
    }

    /// Pauses (`true`) or resumes the stream on the server.
    func cork(_ paused: Bool) {
        guard let pointer else { return }
        PulseOperation.release(pa_stream_cork(pointer, paused ? 1 : 0, nil, nil))
    }

    /// Drops everything buffered on the server.
    func flush() {
        guard let pointer else { return }
        PulseOperation.release(pa_stream_flush(pointer, nil, nil))
    }

    /// Finishes `query` once everything written so far has been played.
    func drain(_ query: PulseQuery<Void>) {
        guard let pointer else { return query.fail(PulseError(.badState, while: query.operation)) }
        let issued = query.issue { userdata in
            pa_stream_drain(pointer, { stream, success, userdata in
                guard let query = PulseQuery<Void>.from(userdata) else { return }
                success != 0 ? query.succeed() : query.fail(on: stream.flatMap { pa_stream_get_context($0) })
            }, userdata)
        }
        if !issued { query.fail(lastError(while: query.operation)) }
    }

    func close() {
        guard let pointer else { return }
        self.pointer = nil
        pa_stream_set_state_callback(pointer, nil, nil)
        pa_stream_set_moved_callback(pointer, nil, nil)
        pa_stream_set_read_callback(pointer, nil, nil)
        pa_stream_set_write_callback(pointer, nil, nil)
        if PA_STREAM_IS_GOOD(pa_stream_get_state(pointer)) != 0 { pa_stream_disconnect(pointer) }
        pa_stream_unref(pointer)
    }
}
