import Foundation

/// Time on the CPU and times scheduled in, per role of a process's threads, from
/// `/proc/PID/task/*/schedstat` (nanoseconds, unlike `stat`'s 10 ms ticks). Shows where the
/// daemon's listening cost goes: its audio thread (libpulse's loop and the pipeline), the event
/// loops that write to clients, and the rest.
struct ThreadTimes {
    enum Role: CaseIterable {
        /// The thread libpulse calls with each captured packet (`earshot-pulse`).
        case audio
        /// SwiftNIO's event loops (`NIO-…`): sockets, clients.
        case eventLoops
        case other
    }

    struct Usage {
        var seconds: Double = 0
        /// How often the thread was put on a CPU: each is a wake-up, or a return after preemption.
        var slices = 0

        static func - (later: Usage, earlier: Usage) -> Usage {
            Usage(seconds: later.seconds - earlier.seconds, slices: later.slices - earlier.slices)
        }
    }

    private(set) var usage: [Role: Usage] = [:]

    subscript(role: Role) -> Usage { usage[role] ?? Usage() }

    var totalSeconds: Double { usage.values.reduce(0) { $0 + $1.seconds } }

    /// Every thread of `pid` now. Threads that end while being read are left out.
    static func read(pid: pid_t) throws -> ThreadTimes {
        let directory = "/proc/\(pid)/task"
        var times = ThreadTimes()
        for thread in try FileManager.default.contentsOfDirectory(atPath: directory) {
            guard let name = try? String(contentsOfFile: "\(directory)/\(thread)/comm", encoding: .utf8),
                let usage = try? schedstat("\(directory)/\(thread)/schedstat")
            else { continue }
            let role: Role = name.hasPrefix("earshot-pulse") ? .audio : name.hasPrefix("NIO-") ? .eventLoops : .other
            times.usage[role, default: Usage()].seconds += usage.seconds
            times.usage[role, default: Usage()].slices += usage.slices
        }
        return times
    }

    /// A single-threaded process's own figures (`parec`).
    static func process(pid: pid_t) throws -> Usage {
        try schedstat("/proc/\(pid)/schedstat")
    }

    private static func schedstat(_ path: String) throws -> Usage {
        let fields = try String(contentsOfFile: path, encoding: .utf8).split(separator: " ")
        guard fields.count >= 3, let nanoseconds = Double(fields[0]), let slices = Int(fields[2].filter(\.isNumber)) else {
            throw LiveBench.Failure(description: "unreadable \(path)")
        }
        return Usage(seconds: nanoseconds / 1e9, slices: slices)
    }

    static func - (later: ThreadTimes, earlier: ThreadTimes) -> ThreadTimes {
        var difference = ThreadTimes()
        for role in Role.allCases { difference.usage[role] = later[role] - earlier[role] }
        return difference
    }
}
