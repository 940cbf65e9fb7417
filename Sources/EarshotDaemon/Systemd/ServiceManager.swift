import CSystemd
import EarshotProtocol
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The service manager (systemd) as a service sees it, through libsystemd's sd-daemon calls:
/// readiness and status notifications, the watchdog, and sockets passed by socket activation.
///
/// Outside systemd every call is harmless: `notify` sends nothing and returns false, there is no
/// watchdog and no passed socket.
public enum ServiceManager {
    /// The first descriptor of passed sockets (`SD_LISTEN_FDS_START`).
    public static let firstPassedDescriptor = Int32(SD_LISTEN_FDS_START)

    /// Whether a service manager listens for notifications (`NOTIFY_SOCKET` is set).
    public static var isListening: Bool {
        getenv("NOTIFY_SOCKET") != nil
    }

    /// Sends `fields` to the service manager. Returns false when none listens (`NOTIFY_SOCKET`
    /// unset), true once sent. The environment is kept: notifications go on all the service's life.
    @discardableResult
    public static func notify(_ fields: [NotifyField]) throws(ServiceManagerError) -> Bool {
        let result = sd_notify(0, NotifyField.message(fields))
        guard result >= 0 else { throw ServiceManagerError(call: "sd_notify", returned: result) }
        return result > 0
    }

    /// The watchdog interval (`WatchdogSec=`, passed as `WATCHDOG_USEC`) when the manager expects
    /// keep-alives from this process; nil when it does not.
    public static func watchdogInterval() throws(ServiceManagerError) -> Duration? {
        var microseconds: UInt64 = 0
        let result = sd_watchdog_enabled(0, &microseconds)
        guard result >= 0 else { throw ServiceManagerError(call: "sd_watchdog_enabled", returned: result) }
        guard result > 0 else { return nil }
        return .microseconds(Int64(clamping: microseconds))
    }

    /// The descriptors passed by socket activation (`LISTEN_FDS`, for this process per
    /// `LISTEN_PID`), from ``firstPassedDescriptor`` on; empty when none were. libsystemd marks
    /// them close-on-exec and removes the variables, so child processes see neither.
    public static func passedDescriptors() throws(ServiceManagerError) -> [Int32] {
        let result = sd_listen_fds(1)
        guard result >= 0 else { throw ServiceManagerError(call: "sd_listen_fds", returned: result) }
        return (0..<result).map { firstPassedDescriptor + $0 }
    }

    /// Whether `descriptor` is a Unix stream socket that listens (`sd_is_socket_unix`).
    public static func isListeningUnixStreamSocket(_ descriptor: Int32) throws(ServiceManagerError) -> Bool {
        let result = sd_is_socket_unix(descriptor, Int32(SOCK_STREAM.rawValue), 1, nil, 0)
        guard result >= 0 else { throw ServiceManagerError(call: "sd_is_socket_unix", returned: result) }
        return result > 0
    }

    /// The path a Unix socket is bound to, or nil when it has none (unbound or abstract).
    public static func boundPath(of descriptor: Int32) -> String? {
        UnixSocketAddress(boundTo: descriptor)?.path
    }
}
