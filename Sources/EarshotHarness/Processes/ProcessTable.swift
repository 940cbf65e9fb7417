#if canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#elseif canImport(Darwin)
public import Darwin
#endif

/// What /proc says about a process.
public enum ProcessTable {
    /// Whether `pid` is in the process table at all (a zombie counts: `kill -0` would succeed).
    public static func exists(_ pid: pid_t) -> Bool {
        access("/proc/\(pid)/stat", F_OK) == 0
    }

    /// The state letter from /proc/PID/stat ("R", "S", "Z" for a zombie, …), nil when gone.
    public static func state(_ pid: pid_t) -> Character? {
        guard let stat = readSmallFile("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return nil }
        return stat[close...].dropFirst().first { $0 != " " }
    }

    /// `pid`'s resident memory in kilobytes (VmRSS), nil if /proc cannot say; this process's
    /// by default.
    public static func residentKilobytes(of pid: pid_t = getpid()) -> Int? {
        guard let status = readSmallFile("/proc/\(pid)/status"),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = read(fd, &bytes, bytes.count)
        guard count > 0 else { return nil }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }
}
