import Foundation
import Synchronization

/// The least a level event can cost on this machine: the system's part of the daemon's path with
/// nothing else. A "waker" thread woken every 10 ms by `poll` (as libpulse wakes the capture
/// thread) writes 8 bytes to a pipe on 60 of each 100 wakes; a "loop" thread waits in `poll`,
/// reads them and writes a 150-byte line to a Unix socket that a third thread drains. The figures:
/// the waker's CPU per event (the write and the wake-up it sends) and the loop's CPU per line.
enum WakeFloor {
    struct Costs {
        var wakerPerEvent: Double
        var loopPerLine: Double
        var events: Int
    }

    private final class Shared: Sendable {
        let wakeRead: Int32
        let wakeWrite: Int32
        let sockets: (Int32, Int32)
        let stop = Atomic<Bool>(false)
        let loopSeconds = Mutex<Double>(0)
        let finished = DispatchSemaphore(value: 0)

        init() throws {
            var wake: [Int32] = [0, 0]
            var pair: [Int32] = [0, 0]
            guard pipe(&wake) == 0, socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else {
                throw LiveBench.Failure(description: "wake floor: \(String(cString: strerror(errno)))")
            }
            (wakeRead, wakeWrite) = (wake[0], wake[1])
            sockets = (pair[0], pair[1])
        }

        deinit {
            close(wakeRead)
            close(wakeWrite)
            close(sockets.0)
            close(sockets.1)
        }
    }

    static func measure(seconds: Double) throws -> Costs {
        let shared = try Shared()
        Thread.detachNewThread { loop(shared) }
        Thread.detachNewThread { drain(shared) }
        let busy = wake(times: Int(seconds * 50)) {
            var one: UInt64 = 1
            _ = write(shared.wakeWrite, &one, 8)
        }
        shared.stop.store(true, ordering: .sequentiallyConsistent)
        var one: UInt64 = 1
        _ = write(shared.wakeWrite, &one, 8)
        shared.finished.wait()
        shutdown(shared.sockets.0, Int32(SHUT_WR))
        shared.finished.wait()
        let events = busy.events
        return Costs(
            wakerPerEvent: busy.seconds / Double(max(1, events)) * 1e6,
            loopPerLine: shared.loopSeconds.withLock { $0 } / Double(max(1, events)) * 1e6,
            events: events
        )
    }

    /// Wakes `times` times by `poll`, every 10 ms, runs `event` (the loop's wake) on 60 of each
    /// 100 and returns the CPU those runs took (each timed on its own: the thread's wake-ups vary
    /// more from run to run than the writes cost).
    static func wake(times: Int, _ event: () -> Void) -> (seconds: Double, events: Int) {
        var share = 0
        var events = 0
        var seconds = 0.0
        for _ in 0..<times {
            _ = poll(nil, 0, 10)
            share += 60
            if share >= 100 {
                share -= 100
                let start = threadSeconds()
                event()
                seconds += threadSeconds() - start
                events += 1
            }
        }
        return (seconds, events)
    }

    private static func loop(_ shared: Shared) {
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 149) + [UInt8(ascii: "\n")]
        let start = threadSeconds()
        var ready = pollfd(fd: shared.wakeRead, events: Int16(POLLIN), revents: 0)
        var counter: UInt64 = 0
        while true {
            guard poll(&ready, 1, -1) == 1 else { continue }
            _ = read(shared.wakeRead, &counter, 8)
            if shared.stop.load(ordering: .sequentiallyConsistent) { break }
            _ = line.withUnsafeBytes { write(shared.sockets.0, $0.baseAddress, $0.count) }
        }
        shared.loopSeconds.withLock { $0 = threadSeconds() - start }
        shared.finished.signal()
    }

    private static func drain(_ shared: Shared) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ read(shared.sockets.1, $0.baseAddress, $0.count) }) > 0 {}
        shared.finished.signal()
    }

    static func threadSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
