import CPulse

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An event source libpulse makes on `PulseMainloop`. libpulse holds each as an opaque pointer
/// (the object itself, unretained: the loop's lists own it until it is removed).
protocol PulseMainloopEvent: AnyObject {
    /// Freed by libpulse, not yet removed: no callback runs for it.
    var dead: Bool { get }
    /// Runs the destroy callback libpulse set, if any: the event is going away.
    func destroy(api: UnsafeMutablePointer<pa_mainloop_api>)
}

extension PulseMainloopEvent {
    var pointer: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    static func from(_ pointer: OpaquePointer?) -> Self {
        Unmanaged<Self>.fromOpaque(UnsafeRawPointer(pointer!)).takeUnretainedValue()
    }
}

/// A descriptor watched for reading, writing, errors or hang-up.
///
/// Reused once removed: libpulse frees its socket's event and makes a new one around every read
/// (its I/O channel drops the event while the socket is both readable and writable), a hundred
/// times a second, on the audio thread.
final class PulseMainloopIOEvent: PulseMainloopEvent {
    unowned(unsafe) let loop: PulseMainloop
    private(set) var descriptor: Int32
    private(set) var callback: pa_io_event_cb_t
    private(set) var userdata: UnsafeMutableRawPointer?
    var destroyCallback: pa_io_event_destroy_cb_t?
    var events: pa_io_event_flags_t
    var dead = false
    /// Its entry in the loop's poll set (0: none yet).
    var pollIndex = 0

    init(loop: PulseMainloop, descriptor: Int32, events: pa_io_event_flags_t, callback: pa_io_event_cb_t, userdata: UnsafeMutableRawPointer?) {
        self.loop = loop
        self.descriptor = descriptor
        self.events = events
        self.callback = callback
        self.userdata = userdata
    }

    /// The same object as a new event: libpulse no longer holds the old one once it is removed.
    func reuse(descriptor: Int32, events: pa_io_event_flags_t, callback: pa_io_event_cb_t, userdata: UnsafeMutableRawPointer?) {
        self.descriptor = descriptor
        self.events = events
        self.callback = callback
        self.userdata = userdata
        destroyCallback = nil
        dead = false
        pollIndex = 0
    }

    func destroy(api: UnsafeMutablePointer<pa_mainloop_api>) {
        destroyCallback?(api, pointer, userdata)
    }

    var pollEvents: Int16 {
        var result: Int32 = 0
        if events.rawValue & PA_IO_EVENT_INPUT.rawValue != 0 { result |= POLLIN }
        if events.rawValue & PA_IO_EVENT_OUTPUT.rawValue != 0 { result |= POLLOUT }
        if events.rawValue & PA_IO_EVENT_ERROR.rawValue != 0 { result |= POLLERR }
        if events.rawValue & PA_IO_EVENT_HANGUP.rawValue != 0 { result |= POLLHUP }
        return Int16(result)
    }

    static func flags(_ returned: Int16) -> pa_io_event_flags_t {
        let returned = Int32(returned)
        var result: UInt32 = 0
        if returned & POLLIN != 0 { result |= PA_IO_EVENT_INPUT.rawValue }
        if returned & POLLOUT != 0 { result |= PA_IO_EVENT_OUTPUT.rawValue }
        if returned & POLLERR != 0 { result |= PA_IO_EVENT_ERROR.rawValue }
        if returned & POLLHUP != 0 { result |= PA_IO_EVENT_HANGUP.rawValue }
        return pa_io_event_flags_t(rawValue: result)
    }
}

/// A one-shot timer, on the monotonic clock whichever clock libpulse gave its time in.
final class PulseMainloopTimeEvent: PulseMainloopEvent {
    unowned(unsafe) let loop: PulseMainloop
    let callback: pa_time_event_cb_t
    let userdata: UnsafeMutableRawPointer?
    var destroyCallback: pa_time_event_destroy_cb_t?
    var dead = false
    var armed = false
    /// When it fires, in microseconds of the monotonic clock (`pa_rtclock_now`).
    var due: pa_usec_t = 0
    /// Whether libpulse gave the time on the monotonic clock, and so expects it back so.
    var monotonic = false

    /// libpulse marks a `timeval` on the monotonic clock with this bit of `tv_usec`
    /// (`PA_TIMEVAL_RTCLOCK`, pulsecore/core-rtclock.h, not in the public headers).
    static let monotonicMark = 1 << 30

    init(loop: PulseMainloop, callback: pa_time_event_cb_t, userdata: UnsafeMutableRawPointer?) {
        self.loop = loop
        self.callback = callback
        self.userdata = userdata
    }

    func destroy(api: UnsafeMutablePointer<pa_mainloop_api>) {
        destroyCallback?(api, pointer, userdata)
    }

    /// Arms it for `time` (wall clock, or monotonic when marked), or disarms it for nil.
    func set(_ time: UnsafePointer<timeval>?) {
        guard let time else {
            armed = false
            return
        }
        var value = time.pointee
        monotonic = Int(value.tv_usec) & Self.monotonicMark != 0
        if monotonic {
            value.tv_usec = suseconds_t(Int(value.tv_usec) & ~Self.monotonicMark)
            due = pa_timeval_load(&value)
        } else {
            let wallNow = Int64(bitPattern: Self.wallClockNow())
            let offset = Int64(bitPattern: pa_timeval_load(&value)) - wallNow
            due = pa_usec_t(max(0, Int64(bitPattern: pa_rtclock_now()) + offset))
        }
        armed = true
    }

    /// The time handed to the callback: the one it was set for, on the clock it was given in.
    func callbackTime() -> timeval {
        var result = timeval()
        if monotonic {
            pa_timeval_store(&result, due)
            result.tv_usec = suseconds_t(Int(result.tv_usec) | Self.monotonicMark)
        } else {
            let offset = Int64(bitPattern: due) - Int64(bitPattern: pa_rtclock_now())
            pa_timeval_store(&result, pa_usec_t(max(0, Int64(bitPattern: Self.wallClockNow()) + offset)))
        }
        return result
    }

    private static func wallClockNow() -> pa_usec_t {
        var now = timeval()
        return pa_timeval_load(pa_gettimeofday(&now))
    }
}

/// A callback run once every turn of the loop while enabled, before the loop waits.
final class PulseMainloopDeferEvent: PulseMainloopEvent {
    unowned(unsafe) let loop: PulseMainloop
    let callback: pa_defer_event_cb_t
    let userdata: UnsafeMutableRawPointer?
    var destroyCallback: pa_defer_event_destroy_cb_t?
    var dead = false
    var enabled = true

    init(loop: PulseMainloop, callback: pa_defer_event_cb_t, userdata: UnsafeMutableRawPointer?) {
        self.loop = loop
        self.callback = callback
        self.userdata = userdata
    }

    func destroy(api: UnsafeMutablePointer<pa_mainloop_api>) {
        destroyCallback?(api, pointer, userdata)
    }
}
