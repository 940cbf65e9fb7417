#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Wall-clock times in UTC to the millisecond, as recordings name and describe them.
enum UTCTimestamp {
    /// `20261121T203000123`: sorts in time order, fits a file name.
    static func compact(_ wall: Double) -> String {
        let (parts, milliseconds) = split(wall)
        return digits(parts.year, 4) + digits(parts.month, 2) + digits(parts.day, 2) + "T"
            + digits(parts.hour, 2) + digits(parts.minute, 2) + digits(parts.second, 2) + digits(milliseconds, 3)
    }

    /// `2026-11-21T20:30:00.123Z` (ISO 8601).
    static func iso8601(_ wall: Double) -> String {
        let (parts, milliseconds) = split(wall)
        return digits(parts.year, 4) + "-" + digits(parts.month, 2) + "-" + digits(parts.day, 2) + "T"
            + digits(parts.hour, 2) + ":" + digits(parts.minute, 2) + ":" + digits(parts.second, 2) + "." + digits(milliseconds, 3) + "Z"
    }

    /// `value` in decimal with leading zeros up to `width` digits.
    static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func split(_ wall: Double) -> (parts: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int), milliseconds: Int) {
        let whole = wall.rounded(.down)
        var seconds = time_t(whole)
        let milliseconds = min(999, max(0, Int(((wall - whole) * 1000).rounded(.down))))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return (
            (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec)),
            milliseconds
        )
    }
}
