#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Starts this program afresh in the same process: `execve` of `/proc/self/exe` with the same
/// arguments, the same process id (a front end's or systemd's notion of the daemon stays valid)
/// and the same standard streams. Every other descriptor closes on the way, so the socket and
/// its lock are free for the new start.
///
/// It is the way out of a thread stuck inside a library with its lock held (libpulse's, see
/// ``Supervisor``): no thread can be stopped from outside, but `execve` ends them all.
enum ProcessRestart {
    /// Variables left out of the restarted program's environment.
    static let droppedVariables = [DaemonFaults.stallAudioThreadVariable]

    /// Replaces the process; returns the `errno` of a failed `execve` only.
    static func restart(arguments: [String] = CommandLine.arguments) -> Int32 {
        closeOnExecFromDescriptorThree()
        var environment: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            let variable = String(cString: pointer)
            if !droppedVariables.contains(where: { variable.hasPrefix($0 + "=") }) { environment.append(variable) }
            entry += 1
        }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        execve("/proc/self/exe", argv, envp)
        let failure = errno
        for pointer in argv + envp { free(pointer) }
        return failure
    }

    /// Marks every descriptor from 3 up close-on-exec (the standard streams stay open).
    private static func closeOnExecFromDescriptorThree() {
        guard let directory = opendir("/proc/self/fd") else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let descriptor = Int32(name), descriptor > 2 else { continue }
            let flags = fcntl(descriptor, F_GETFD)
            if flags >= 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
        }
    }
}
