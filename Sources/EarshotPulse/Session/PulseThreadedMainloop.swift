import CPulse

/// Owner of a `pa_threaded_mainloop`: the thread on which libpulse runs every callback.
///
/// Any other thread that touches libpulse objects must hold the mainloop's lock; `withLock`
/// takes it (and knows not to on the mainloop thread itself, where it is already held).
final class PulseThreadedMainloop: @unchecked Sendable {
    // @unchecked: the pa_threaded_mainloop functions used here are safe from any thread.
    let pointer: OpaquePointer

    init(threadName: String) throws(PulseError) {
        guard let pointer = pa_threaded_mainloop_new() else {
            throw PulseError(.internalError, while: "create the PulseAudio mainloop")
        }
        self.pointer = pointer
        pa_threaded_mainloop_set_name(pointer, threadName)
    }

    deinit {
        pa_threaded_mainloop_stop(pointer)
        pa_threaded_mainloop_free(pointer)
    }

    func start() throws(PulseError) {
        guard pa_threaded_mainloop_start(pointer) == 0 else {
            throw PulseError(.internalError, while: "start the PulseAudio mainloop thread")
        }
    }

    /// Stops and joins the thread. Never call it from the mainloop thread or with the lock held.
    func stop() {
        pa_threaded_mainloop_stop(pointer)
    }

    var isCurrentThread: Bool { pa_threaded_mainloop_in_thread(pointer) != 0 }

    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        if isCurrentThread { return try body() }
        pa_threaded_mainloop_lock(pointer)
        defer { pa_threaded_mainloop_unlock(pointer) }
        return try body()
    }

    /// A one-shot timer whose callback runs on the mainloop thread after `delay`.
    func makeTimer(after delay: Duration, callback: pa_time_event_cb_t, userdata: UnsafeMutableRawPointer) -> OpaquePointer? {
        earshot_timer_new(pointer, pa_usec_t(delay.microseconds), callback, userdata)
    }

    /// Sets a timer made by `makeTimer` to fire again after `delay`.
    func restartTimer(_ timer: OpaquePointer, after delay: Duration) {
        earshot_timer_restart(pointer, timer, pa_usec_t(delay.microseconds))
    }

    func freeTimer(_ timer: OpaquePointer) {
        earshot_timer_free(pointer, timer)
    }
}

extension Duration {
    /// Whole microseconds, never negative.
    var microseconds: Int64 {
        let (seconds, attoseconds) = components
        return max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    }
}
