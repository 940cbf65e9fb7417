#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `wall` stamp the server adds to the events it delivers; the daemon stamps captured
/// frames and recordings with the same clock, so the stamps compare.
public enum WallClock {
    /// Seconds since the Unix epoch.
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
