import Foundation

/// Where a process's resident memory lies, from `/proc/PID/smaps`: which mappings the pages
/// belong to says what could be made smaller and what is shared with every other Swift program.
struct MemoryBreakdown {
    /// Kilobytes resident in the Swift runtime's shared libraries (the standard library,
    /// concurrency, Dispatch, Foundation and its ICU data).
    var swiftRuntime = 0
    /// Kilobytes resident in the program's own executable.
    var executable = 0
    /// Kilobytes resident in other shared libraries (libc, libstdc++, libpulse, speech engines).
    var otherLibraries = 0
    /// Kilobytes of anonymous memory: heap, stacks, the Swift runtime's caches.
    var anonymous = 0
    /// Proportional set size in kilobytes: each shared page divided by the processes mapping it.
    var proportional = 0
    /// Unique set size in kilobytes: the pages no other process maps (what quitting would free).
    var unique = 0

    init(pid: pid_t) throws {
        // /proc files report a size of 0, so read to the end rather than by the file's size.
        guard let file = FileHandle(forReadingAtPath: "/proc/\(pid)/smaps"),
              let data = try file.readToEnd(), let smaps = String(data: data, encoding: .utf8) else {
            throw LiveBench.Failure(description: "unreadable /proc/\(pid)/smaps")
        }
        let executablePath = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? ""
        var mapping = ""
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.contains("-"), first.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
                mapping = fields.count > 5 ? fields[5...].joined(separator: " ") : ""
                continue
            }
            guard fields.count >= 2, let kilobytes = Int(fields[1]) else { continue }
            switch first {
            case "Rss:":
                if mapping.isEmpty || mapping.hasPrefix("[") {
                    anonymous += kilobytes
                } else if mapping == executablePath {
                    executable += kilobytes
                } else if mapping.contains("/lib/swift/linux/") {
                    swiftRuntime += kilobytes
                } else if mapping.hasPrefix("/") {
                    otherLibraries += kilobytes
                } else {
                    anonymous += kilobytes
                }
            case "Pss:":
                proportional += kilobytes
            case "Private_Clean:", "Private_Dirty:":
                unique += kilobytes
            default:
                break
            }
        }
    }
}
