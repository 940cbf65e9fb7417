#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A libsystemd call that failed, with the errno it returned (negated, as libsystemd does).
public struct ServiceManagerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The libsystemd function, e.g. "sd_notify".
    public var call: String
    /// The error number (positive), e.g. `ECONNREFUSED`.
    public var errno: Int32

    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    /// From a libsystemd return value: negative values are `-errno`.
    init(call: String, returned value: Int32) {
        self.init(call: call, errno: -value)
    }

    public var description: String {
        "\(call) failed: \(String(cString: strerror(errno)))"
    }
}
