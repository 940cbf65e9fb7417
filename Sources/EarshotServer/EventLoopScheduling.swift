#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
public import NIOCore

/// Keeps the event loops from preempting the capture thread when they wake.
///
/// The capture thread wakes a client's event loop to write a line it has just queued; Linux
/// often places the woken loop on the capture thread's own CPU, where it preempted the capture
/// thread before that could go back to waiting for the next packet (with a 60 Hz level client,
/// 46 of the capture thread's 150 switches a second were involuntary). A `SCHED_BATCH` thread
/// that wakes never preempts the running one (the kernel leaves that to its tick), so the loop
/// runs when the capture thread sleeps, a few microseconds later, or on another CPU. The policy
/// is not a lower priority: the loops keep their full share of the CPU.
public enum EventLoopScheduling {
    /// `SCHED_BATCH` of `<linux/sched.h>`, a fixed part of Linux's ABI; Glibc's module exports
    /// the name only under `_GNU_SOURCE`.
    public static let batchPolicy: Int32 = 3

    /// Puts every thread of `group` under `SCHED_BATCH`. Returns the `errno` of each loop where
    /// the kernel refused (a seccomp filter may), in no order; the loops work as before there.
    public static func stopPreemptingOnWake(_ group: any EventLoopGroup) async -> [Int32] {
        var refusals: [Int32] = []
        for loop in group.makeIterator() {
            let refusal: Int32? = try? await loop.submit { () -> Int32? in
                var parameters = sched_param()
                return sched_setscheduler(0, batchPolicy, &parameters) == 0 ? nil : errno
            }.get()
            if let refusal { refusals.append(refusal) }
        }
        return refusals
    }
}
