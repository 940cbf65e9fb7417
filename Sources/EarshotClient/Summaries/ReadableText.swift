public import EarshotBase
public import Foundation

/// How the CLI words numbers, times and JSON values for people.
public enum ReadableText {
    /// An audio-time stamp or a length in seconds, two decimals: `41.52 s`.
    public static func seconds(_ value: Double) -> String {
        String(format: "%.2f s", value)
    }

    /// A long span in words: `42 s`, `3 min 07 s`, `1 h 02 min 05 s`, `2 d 3 h 04 min`.
    public static func span(seconds value: Double) -> String {
        let total = Int(max(0, value.isFinite ? value : 0))
        let days = total / 86_400, hours = total / 3600 % 24, minutes = total / 60 % 60, seconds = total % 60
        if days > 0 { return "\(days) d \(hours) h " + String(format: "%02d min", minutes) }
        if hours > 0 { return "\(hours) h " + String(format: "%02d min %02d s", minutes, seconds) }
        if minutes > 0 { return "\(minutes) min " + String(format: "%02d s", seconds) }
        return "\(seconds) s"
    }

    /// A wall-clock time (Unix seconds) as the time of day in `timeZone`: `14:02:07`.
    public static func timeOfDay(wall: Double, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute, .second], from: Date(timeIntervalSince1970: wall))
        return String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

    /// A JSON value the way a person reads it: strings bare, `null` as "none", numbers as the
    /// shortest decimal that reads back the same (whole ones without decimals), anything nested
    /// as compact JSON.
    public static func value(_ value: JSONValue?) -> String {
        switch value {
        case nil, .null?: "none"
        case .string(let text)?: text
        case .bool(let flag)?: flag ? "yes" : "no"
        case .number(let number)?: numberText(number.doubleValue)
        case let other?: other.jsonText
        }
    }

    /// `30`, `0.5`, `1.25`: whole numbers without a decimal point, others as Swift writes them.
    static func numberText(_ number: Double) -> String {
        guard number.isFinite else { return "null" }  // JSON has no infinities or NaN.
        if number.rounded() == number, abs(number) < 9.0e15 { return String(Int(number)) }
        return String(number)
    }

    /// A protocol key as words: `dropped_levels` → `dropped levels`.
    public static func words(_ key: String) -> String {
        key.replacingOccurrences(of: "_", with: " ")
    }

    /// `lines` cut to `width` characters each (at least 0), so nothing wraps on a terminal.
    public static func clipped(_ line: String, to width: Int) -> String {
        line.count <= width ? line : String(line.prefix(max(0, width)))
    }
}
