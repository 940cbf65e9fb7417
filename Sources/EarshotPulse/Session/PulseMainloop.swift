import CPulse
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The thread on which libpulse runs every callback: a `pa_mainloop_api` of Earshot's own, on
/// one thread, with a lock other threads take to touch libpulse objects.
///
/// It does what `pa_threaded_mainloop` does, less the wake-ups: libpulse's mainloop writes to its
/// wake-up pipe whenever an event source changes, from any thread, so every 10 ms packet of the
/// microphone cost four writes and two reads of that pipe besides the packet's own two reads (the
/// socket's reader frees its event and makes a new one around each read). Here the loop is woken
/// only when another thread changes a source while the loop is waiting in `poll`, through an
/// eventfd.
///
/// The loop holds the lock except while it waits in `poll`; other threads hold it for every call
/// into libpulse, so "another thread is calling" and "the loop is polling" are one condition.
/// The poll set is touched only by the loop thread (or before it starts).
final class PulseMainloop: @unchecked Sendable {
    // @unchecked: every `var` is touched on the loop thread with the lock held, or by another
    // thread with the lock held; `loopThread` is atomic.

    /// The table libpulse calls through; its `userdata` is this loop.
    let api: UnsafeMutablePointer<pa_mainloop_api>
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let wakeDescriptor: Int32
    private let threadName: String
    private var thread: pthread_t?
    private let loopThread = Atomic<UInt>(0)

    /// Whether the loop is waiting in `poll` (with the lock let go).
    private(set) var polling = false
    private var wakePending = false
    /// Writes to the wake-up descriptor so far, for the tests.
    private(set) var wakeUps = 0
    private var quitting = false

    private(set) var ioEvents: [PulseMainloopIOEvent] = []
    private(set) var timeEvents: [PulseMainloopTimeEvent] = []
    private(set) var deferEvents: [PulseMainloopDeferEvent] = []
    /// Removed I/O events kept for reuse (at most `spareLimit`).
    private var spareIOEvents: [PulseMainloopIOEvent] = []
    private static let spareLimit = 8
    /// I/O event objects allocated so far, for the tests.
    private(set) var ioEventsMade = 0
    private var deadEvents = 0
    var enabledDeferEvents = 0
    /// The poll set: the wake-up descriptor first, then one entry per live I/O event.
    private var pollDescriptors: UnsafeMutablePointer<pollfd>
    private var pollCapacity = 8
    private var pollCount = 0
    private var pollSetStale = true

    init(threadName: String) throws(PulseError) {
        let descriptor = earshot_wake_descriptor()
        guard descriptor >= 0 else { throw PulseError(.internalError, while: "create the PulseAudio mainloop's wake-up descriptor") }
        wakeDescriptor = descriptor
        self.threadName = threadName
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        pollDescriptors = .allocate(capacity: pollCapacity)
        ioEvents.reserveCapacity(pollCapacity)
        spareIOEvents.reserveCapacity(Self.spareLimit)
        api = .allocate(capacity: 1)
        api.initialize(to: PulseMainloop.makeTable())
        api.pointee.userdata = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        stop()
        for event in ioEvents where !event.dead { event.destroy(api: api) }
        for event in timeEvents where !event.dead { event.destroy(api: api) }
        for event in deferEvents where !event.dead { event.destroy(api: api) }
        api.deallocate()
        pollDescriptors.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        close(wakeDescriptor)
    }

    static func from(_ api: UnsafeMutablePointer<pa_mainloop_api>?) -> PulseMainloop {
        Unmanaged<PulseMainloop>.fromOpaque(api!.pointee.userdata).takeUnretainedValue()
    }

    // MARK: The thread

    func start() throws(PulseError) {
        // Unretained: the owner stops (and joins) the thread before it lets the loop go.
        let context = Unmanaged.passUnretained(self).toOpaque()
        var created = pthread_t()
        let result = pthread_create(&created, nil, { context in
            Unmanaged<PulseMainloop>.fromOpaque(context!).takeUnretainedValue().run()
            return nil
        }, context)
        guard result == 0 else { throw PulseError(.internalError, while: "start the PulseAudio mainloop thread") }
        withLock { thread = created }
    }

    /// A one-shot timer whose callback runs on the loop thread after `delay`.
    func makeTimer(after delay: Duration, callback: pa_time_event_cb_t, userdata: UnsafeMutableRawPointer) -> OpaquePointer? {
        earshot_timer_new(api, pa_usec_t(delay.microseconds), callback, userdata)
    }

    /// Sets a timer made by `makeTimer` to fire again after `delay`.
    func restartTimer(_ timer: OpaquePointer, after delay: Duration) {
        earshot_timer_restart(api, timer, pa_usec_t(delay.microseconds))
    }

    func freeTimer(_ timer: OpaquePointer) {
        earshot_timer_free(api, timer)
    }

    /// Ends the loop and joins its thread. Never call it from the loop thread or with the lock held.
    func stop() {
        let joining: pthread_t? = withLock {
            quitting = true
            wake()
            defer { thread = nil }
            return thread
        }
        if let joining { pthread_join(joining, nil) }
    }

    var isCurrentThread: Bool { loopThread.load(ordering: .relaxed) == UInt(pthread_self()) }

    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        if isCurrentThread { return try body() }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    private func run() {
        earshot_name_thread(threadName)
        loopThread.store(UInt(pthread_self()), ordering: .relaxed)
        pthread_mutex_lock(mutex)
        while !quitting { iterate() }
        loopThread.store(0, ordering: .relaxed)
        pthread_mutex_unlock(mutex)
    }

    /// One turn, as `pa_mainloop_iterate`: enabled deferred events run without waiting; otherwise
    /// wait for a descriptor or the next timer, then run the timers due and the ready descriptors.
    private func iterate() {
        if deadEvents > 0 { removeDeadEvents() }
        if enabledDeferEvents > 0 {
            dispatchDeferEvents()
            return
        }
        if pollSetStale { rebuildPollSet() }
        let timeout = millisecondsToNextTimer()
        polling = true
        pthread_mutex_unlock(mutex)
        let ready = poll(pollDescriptors, nfds_t(pollCount), timeout)
        pthread_mutex_lock(mutex)
        polling = false
        if ready > 0, pollDescriptors[0].revents != 0 {
            var count: UInt64 = 0
            _ = read(wakeDescriptor, &count, MemoryLayout<UInt64>.size)
            wakePending = false
        }
        if quitting { return }
        dispatchTimeEvents()
        if ready > 0 { dispatchIOEvents() }
    }

    // MARK: Waking

    /// Called whenever an event source changes: only a loop waiting in `poll` needs waking, and
    /// then only another thread can be the caller.
    func sourcesChanged() {
        if polling { wake() }
    }

    private func wake() {
        guard polling, !wakePending else { return }
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, MemoryLayout<UInt64>.size)
        wakePending = true
        wakeUps += 1
    }

    func quit() {
        quitting = true
        wake()
    }

    // MARK: Event sources

    func addIOEvent(descriptor: Int32, events: pa_io_event_flags_t, callback: pa_io_event_cb_t, userdata: UnsafeMutableRawPointer?) -> PulseMainloopIOEvent {
        let event: PulseMainloopIOEvent
        if let spare = spareIOEvents.popLast() {
            spare.reuse(descriptor: descriptor, events: events, callback: callback, userdata: userdata)
            event = spare
        } else {
            ioEventsMade += 1
            event = PulseMainloopIOEvent(loop: self, descriptor: descriptor, events: events, callback: callback, userdata: userdata)
        }
        ioEvents.append(event)
        pollSetStale = true
        sourcesChanged()
        return event
    }

    func add(_ event: PulseMainloopTimeEvent) {
        timeEvents.append(event)
        sourcesChanged()
    }

    func add(_ event: PulseMainloopDeferEvent) {
        deferEvents.append(event)
        sourcesChanged()
    }

    /// New conditions for `event`'s descriptor: written into the poll set in place on the loop
    /// thread, or the set rebuilt before the next wait.
    func watch(_ event: PulseMainloopIOEvent) {
        if !polling, event.pollIndex > 0 {
            pollDescriptors[event.pollIndex].events = event.pollEvents
        } else {
            pollSetStale = true
            sourcesChanged()
        }
    }

    /// An event was freed: no callback runs for it any more; it is removed (and its destroy
    /// callback run) at the start of the next turn, as libpulse's own loop does. A freed I/O
    /// event also leaves the poll set.
    func eventFreed(watchingADescriptor: Bool) {
        deadEvents += 1
        guard watchingADescriptor else { return }
        pollSetStale = true
        sourcesChanged()
    }

    private func removeDeadEvents() {
        deadEvents = 0
        removeDead(from: \.ioEvents) { event in
            if spareIOEvents.count < Self.spareLimit { spareIOEvents.append(event) }
        }
        removeDead(from: \.timeEvents)
        removeDead(from: \.deferEvents)
    }

    /// Index by index, reading the list afresh each time, and in place: a destroy callback may add
    /// or free events, and nothing here allocates.
    @inline(__always)
    private func removeDead<Event: PulseMainloopEvent>(
        from list: ReferenceWritableKeyPath<PulseMainloop, [Event]>, then removed: (Event) -> Void = { _ in }
    ) {
        var index = 0
        while index < self[keyPath: list].count {
            let event = self[keyPath: list][index]
            guard event.dead else {
                index += 1
                continue
            }
            self[keyPath: list].remove(at: index)
            event.destroy(api: api)
            removed(event)
        }
    }

    private func rebuildPollSet() {
        let needed = ioEvents.count + 1
        if needed > pollCapacity {
            pollDescriptors.deallocate()
            pollCapacity = needed * 2
            pollDescriptors = .allocate(capacity: pollCapacity)
        }
        pollDescriptors[0] = pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)
        pollCount = 1
        for event in ioEvents {
            guard !event.dead else {
                event.pollIndex = 0
                continue
            }
            pollDescriptors[pollCount] = pollfd(fd: event.descriptor, events: event.pollEvents, revents: 0)
            event.pollIndex = pollCount
            pollCount += 1
        }
        pollSetStale = false
    }

    private func millisecondsToNextTimer() -> Int32 {
        var next = UInt64.max
        for event in timeEvents where event.armed && !event.dead { next = min(next, event.due) }
        guard next != .max else { return -1 }
        let now = pa_rtclock_now()
        guard next > now else { return 0 }
        return Int32(clamping: (next - now + 999) / 1000)
    }

    // MARK: Dispatch

    // By index: a callback may add events (appended, run from the next turn) or free them
    // (marked dead), and iterating a copy of the list would allocate on every addition.

    private func dispatchDeferEvents() {
        var index = 0
        while index < deferEvents.count, !quitting {
            let event = deferEvents[index]
            index += 1
            guard event.enabled, !event.dead else { continue }
            event.callback(api, event.pointer, event.userdata)
        }
    }

    private func dispatchTimeEvents() {
        var now: pa_usec_t = 0
        var index = 0
        while index < timeEvents.count, !quitting {
            let event = timeEvents[index]
            index += 1
            guard event.armed, !event.dead else { continue }
            if now == 0 { now = pa_rtclock_now() }
            guard event.due <= now else { continue }
            event.armed = false
            var time = event.callbackTime()
            event.callback(api, event.pointer, &time, event.userdata)
        }
    }

    private func dispatchIOEvents() {
        var index = 0
        while index < ioEvents.count, !quitting {
            let event = ioEvents[index]
            index += 1
            guard !event.dead, event.pollIndex > 0, event.pollIndex < pollCount else { continue }
            let returned = pollDescriptors[event.pollIndex].revents
            guard returned != 0 else { continue }
            pollDescriptors[event.pollIndex].revents = 0
            event.callback(api, event.pointer, event.descriptor, PulseMainloopIOEvent.flags(returned), event.userdata)
        }
    }
}

extension Duration {
    /// Whole microseconds, never negative.
    var microseconds: Int64 {
        let (seconds, attoseconds) = components
        return max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    }
}
