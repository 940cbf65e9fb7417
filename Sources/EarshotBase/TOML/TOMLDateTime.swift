/// A TOML date, time or date-time (RFC 3339), as written: no calendar arithmetic, no time
/// zone database. Which parts it has says which of TOML's four kinds it is: an offset
/// date-time (all three), a local date-time (date and time), a local date, a local time.
public struct TOMLDateTime: Hashable, Sendable, CustomStringConvertible {
    public struct Date: Hashable, Sendable {
        public var year: Int
        public var month: Int
        public var day: Int

        public init(year: Int, month: Int, day: Int) {
            self.year = year
            self.month = month
            self.day = day
        }
    }

    public struct Time: Hashable, Sendable {
        public var hour: Int
        public var minute: Int
        /// 0 to 60 (60 for a leap second).
        public var second: Int
        /// The fraction of the second, in nanoseconds (digits beyond nine are dropped).
        public var nanosecond: Int

        public init(hour: Int, minute: Int, second: Int, nanosecond: Int = 0) {
            self.hour = hour
            self.minute = minute
            self.second = second
            self.nanosecond = nanosecond
        }
    }

    public var date: Date?
    public var time: Time?
    /// Minutes east of UTC (`Z` is 0); nil for a local date or time.
    public var offsetMinutes: Int?

    public init(date: Date? = nil, time: Time? = nil, offsetMinutes: Int? = nil) {
        precondition(date != nil || time != nil, "a date-time needs a date or a time")
        precondition(offsetMinutes == nil || (date != nil && time != nil), "only a date-time has an offset")
        self.date = date
        self.time = time
        self.offsetMinutes = offsetMinutes
    }

    /// "a date", "a time" or "a date-time", as messages name the value's type.
    public var phrase: String {
        switch (date, time) {
        case (_?, _?): "a date-time"
        case (_?, nil): "a date"
        default: "a time"
        }
    }

    /// RFC 3339, as TOML writes it: `1979-05-27T07:32:00.5-07:00`.
    public var description: String {
        var text = ""
        if let date {
            text += Self.digits(date.year, 4) + "-" + Self.digits(date.month, 2) + "-" + Self.digits(date.day, 2)
        }
        if let time {
            if date != nil { text += "T" }
            text += Self.digits(time.hour, 2) + ":" + Self.digits(time.minute, 2) + ":" + Self.digits(time.second, 2)
            if time.nanosecond > 0 {
                var fraction = Self.digits(time.nanosecond, 9)
                while fraction.hasSuffix("0") { fraction.removeLast() }
                text += "." + fraction
            }
        }
        if let offsetMinutes {
            if offsetMinutes == 0 {
                text += "Z"
            } else {
                let size = abs(offsetMinutes)
                text += (offsetMinutes < 0 ? "-" : "+") + Self.digits(size / 60, 2) + ":" + Self.digits(size % 60, 2)
            }
        }
        return text
    }

    /// `value` with leading zeros to `count` digits.
    private static func digits(_ value: Int, _ count: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, count - text.count)) + text
    }

    /// The days in `month` of `year` (Gregorian).
    static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
