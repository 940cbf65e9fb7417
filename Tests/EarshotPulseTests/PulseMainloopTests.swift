import CPulse
@testable import EarshotPulse
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Earshot's own libpulse mainloop, without a sound server: sources made and changed from other
/// threads wake it; its own changes on its thread do not.
@Suite("The libpulse mainloop")
struct PulseMainloopTests {
    /// What the callbacks saw, from the loop thread.
    final class Probe: Sendable {
        let calls = Mutex<[String]>([])
        let loop: PulseMainloop
        init(loop: PulseMainloop) { self.loop = loop }

        func record(_ call: String) {
            let onLoop = loop.isCurrentThread
            calls.withLock { $0.append(onLoop ? call : call + " off the loop thread") }
        }

        var pointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
        static func from(_ pointer: UnsafeMutableRawPointer?) -> Probe { Unmanaged<Probe>.fromOpaque(pointer!).takeUnretainedValue() }

        /// The calls once `count` have come, or what came within two seconds.
        func waitFor(_ count: Int) async -> [String] {
            for _ in 0..<200 {
                let seen = calls.withLock { $0 }
                if seen.count >= count { return seen }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return calls.withLock { $0 }
        }
    }

    static func makePipe() -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        return (ends[0], ends[1])
    }

    @Test func aDescriptorWatchedFromAnotherThreadWhileTheLoopWaitsIsServed() async throws {
        let loop = try PulseMainloop(threadName: "earshot-test")
        try loop.start()
        defer { loop.stop() }
        let probe = Probe(loop: loop)
        let ends = Self.makePipe()
        defer { close(ends.read); close(ends.write) }
        while !loop.withLock({ loop.polling }) { try await Task.sleep(for: .milliseconds(1)) }
        let event = loop.withLock {
            loop.api.pointee.io_new(loop.api, ends.read, PA_IO_EVENT_INPUT, { _, _, descriptor, flags, userdata in
                var byte: UInt8 = 0
                _ = read(descriptor, &byte, 1)
                Probe.from(userdata).record("readable \(byte) \(flags == PA_IO_EVENT_INPUT)")
            }, probe.pointer)
        }
        var byte: UInt8 = 7
        _ = write(ends.write, &byte, 1)
        #expect(await probe.waitFor(1) == ["readable 7 true"])
        #expect(loop.withLock { loop.wakeUps } == 1, "one wake-up: the new descriptor")
        loop.withLock { loop.api.pointee.io_free(event) }
    }

    @Test func changesOnTheLoopThreadWakeNothing() async throws {
        let loop = try PulseMainloop(threadName: "earshot-test")
        let probe = Probe(loop: loop)
        let ends = Self.makePipe()
        defer { close(ends.read); close(ends.write) }
        // Made before the loop starts, as libpulse's context is: no wake-up either.
        _ = loop.api.pointee.io_new(loop.api, ends.read, PA_IO_EVENT_INPUT, { api, event, descriptor, _, userdata in
            // What libpulse's socket reader does around every read: its source off, then on.
            api!.pointee.io_enable(event, PA_IO_EVENT_NULL)
            var byte: UInt8 = 0
            _ = read(descriptor, &byte, 1)
            api!.pointee.io_enable(event, PA_IO_EVENT_INPUT)
            Probe.from(userdata).record("read \(byte)")
        }, probe.pointer)
        try loop.start()
        defer { loop.stop() }
        for value: UInt8 in 1...3 {
            var byte = value
            _ = write(ends.write, &byte, 1)
            _ = await probe.waitFor(Int(value))
        }
        #expect(await probe.waitFor(3) == ["read 1", "read 2", "read 3"])
        #expect(loop.withLock { loop.wakeUps } == 0)
    }

    /// libpulse's socket reader frees its event and makes a new one around every read, a hundred
    /// times a second: the loop serves each and reuses the freed ones instead of allocating.
    @Test func anEventFreedAndMadeAgainAroundEveryReadIsServedWithoutAllocating() async throws {
        let loop = try PulseMainloop(threadName: "earshot-test")
        let probe = Probe(loop: loop)
        let ends = Self.makePipe()
        defer { close(ends.read); close(ends.write) }
        let callback: pa_io_event_cb_t = { api, event, descriptor, _, userdata in
            api!.pointee.io_free(event)
            var byte: UInt8 = 0
            _ = read(descriptor, &byte, 1)
            Probe.from(userdata).record("read \(byte)")
            _ = api!.pointee.io_new(api, descriptor, PA_IO_EVENT_INPUT, PulseMainloopTests.rereading, userdata)
        }
        Self.rereading = callback
        _ = loop.api.pointee.io_new(loop.api, ends.read, PA_IO_EVENT_INPUT, callback, probe.pointer)
        try loop.start()
        defer { loop.stop() }
        for value: UInt8 in 1...6 {
            var byte = value
            _ = write(ends.write, &byte, 1)
            _ = await probe.waitFor(Int(value))
        }
        let calls = await probe.waitFor(6)
        #expect(calls == (1...6).map { "read \($0)" })
        #expect(loop.withLock { loop.ioEventsMade } == 2, "the first, and one made while the first was not yet removed")
        #expect(loop.withLock { loop.wakeUps } == 0)
    }

    nonisolated(unsafe) static var rereading: pa_io_event_cb_t?

    @Test func aTimerFiresOnceAfterItsDelayAndAFreedOneNever() async throws {
        let loop = try PulseMainloop(threadName: "earshot-test")
        try loop.start()
        defer { loop.stop() }
        let probe = Probe(loop: loop)
        let started = ContinuousClock.now
        let callback: pa_time_event_cb_t = { _, _, time, userdata in
            Probe.from(userdata).record("fired, \(time!.pointee.tv_sec > 1_000_000_000 ? "wall clock" : "other")")
        }
        let freed = loop.withLock { loop.makeTimer(after: .milliseconds(30), callback: callback, userdata: probe.pointer) }
        let kept = loop.withLock { loop.makeTimer(after: .milliseconds(60), callback: callback, userdata: probe.pointer) }
        loop.withLock { loop.freeTimer(freed!) }
        #expect(await probe.waitFor(1) == ["fired, wall clock"])
        #expect(ContinuousClock.now - started >= .milliseconds(60))
        try await Task.sleep(for: .milliseconds(100))
        #expect(probe.calls.withLock { $0.count } == 1, "one-shot")
        loop.withLock { loop.restartTimer(kept!, after: .milliseconds(10)) }
        #expect(await probe.waitFor(2) == ["fired, wall clock", "fired, wall clock"])
        loop.withLock { loop.freeTimer(kept!) }
    }

    @Test func aDeferredEventRunsEveryTurnWhileEnabledAndItsDestroyCallbackOnFree() async throws {
        let loop = try PulseMainloop(threadName: "earshot-test")
        try loop.start()
        defer { loop.stop() }
        let probe = Probe(loop: loop)
        let event = loop.withLock {
            let event = loop.api.pointee.defer_new(loop.api, { api, event, userdata in
                // Runs once, as libpulse's stream writer does: it turns itself off.
                api!.pointee.defer_enable(event, 0)
                Probe.from(userdata).record("deferred")
            }, probe.pointer)
            loop.api.pointee.defer_set_destroy(event, { _, _, userdata in Probe.from(userdata).record("destroyed") })
            return event
        }
        #expect(await probe.waitFor(1) == ["deferred"])
        loop.withLock { loop.api.pointee.defer_enable(event, 1) }
        #expect(await probe.waitFor(2) == ["deferred", "deferred"])
        loop.withLock { loop.api.pointee.defer_free(event) }
        // Removed at the start of the loop's next turn: a timer makes one.
        _ = loop.withLock { loop.makeTimer(after: .milliseconds(1), callback: { _, _, _, _ in }, userdata: probe.pointer) }
        #expect(await probe.waitFor(3) == ["deferred", "deferred", "destroyed"])
    }
}
