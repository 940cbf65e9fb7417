import CPulse

/// Owner of a `pa_context`: one connection to a sound server.
///
/// Used only on the mainloop thread or with the mainloop lock held. `close()` clears the
/// callbacks, disconnects and drops the reference, once.
final class PulseContext {
    private(set) var pointer: OpaquePointer?

    init(mainloop: PulseThreadedMainloop, applicationName: String) throws(PulseError) {
        let api = pa_threaded_mainloop_get_api(mainloop.pointer)
        guard let pointer = pa_context_new(api, applicationName) else {
            throw PulseError(.internalError, while: "create a PulseAudio context")
        }
        self.pointer = pointer
    }

    deinit { close() }

    /// Starts connecting to `server` (nil: libpulse's default, including `PULSE_SERVER`).
    /// Progress arrives through the state callback.
    func connect(server: String?, stateCallback: pa_context_notify_cb_t, userdata: UnsafeMutableRawPointer) throws(PulseError) {
        guard let pointer else { throw PulseError(.badState, while: "connect a closed context") }
        pa_context_set_state_callback(pointer, stateCallback, userdata)
        // libpulse may fail the context inside pa_context_connect, and the state callback may
        // close this wrapper then: keep the context alive to read its error.
        pa_context_ref(pointer)
        defer { pa_context_unref(pointer) }
        if pa_context_connect(pointer, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            throw PulseError(lastErrorOf: pointer, while: "connect to the sound server")
        }
    }

    var state: pa_context_state_t {
        pointer.map { pa_context_get_state($0) } ?? PA_CONTEXT_TERMINATED
    }

    var isReady: Bool { state == PA_CONTEXT_READY }

    /// The address of the server connected to, e.g. "unix:/run/user/1000/pulse/native".
    var serverAddress: String? {
        pointer.flatMap { pa_context_get_server($0) }.map { String(cString: $0) }
    }

    func lastError(while operation: String) -> PulseError {
        guard let pointer else { return PulseError(.badState, while: operation) }
        return PulseError(lastErrorOf: pointer, while: operation)
    }

    /// Asks for server, source, sink and module events through `callback`.
    func subscribe(callback: pa_context_subscribe_cb_t, userdata: UnsafeMutableRawPointer) {
        guard let pointer else { return }
        pa_context_set_subscribe_callback(pointer, callback, userdata)
        let mask = PA_SUBSCRIPTION_MASK_SERVER.rawValue | PA_SUBSCRIPTION_MASK_SOURCE.rawValue
            | PA_SUBSCRIPTION_MASK_SINK.rawValue | PA_SUBSCRIPTION_MASK_MODULE.rawValue
        PulseOperation.release(pa_context_subscribe(pointer, pa_subscription_mask_t(rawValue: mask), nil, nil))
    }

    func close() {
        guard let pointer else { return }
        self.pointer = nil
        pa_context_set_state_callback(pointer, nil, nil)
        pa_context_set_subscribe_callback(pointer, nil, nil)
        pa_context_disconnect(pointer)
        pa_context_unref(pointer)
    }
}
