#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
public import Logging

/// A swift-log handler writing one line per record: journald-friendly under systemd, plain
/// (coloured on a terminal) otherwise. See ``JournalLineStyle``.
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    /// The logger's label (`earshotd.audio`): the subsystem each line names.
    public let label: String
    let format: JournalLineFormat
    let clock: @Sendable () -> String
    let sink: @Sendable (String) -> Void

    /// A handler writing lines (newline included) to `sink`, stamping them with `clock`.
    public init(
        label: String, level: Logger.Level, style: JournalLineStyle,
        clock: @escaping @Sendable () -> String = JournalLogHandler.localTimestamp,
        sink: @escaping @Sendable (String) -> Void
    ) {
        self.label = label
        self.logLevel = level
        self.format = JournalLineFormat(style: style)
        self.clock = clock
        self.sink = sink
    }

    /// A handler writing to this process's stderr in the style that suits it.
    public static func standardError(label: String, level: Logger.Level, style: JournalLineStyle) -> JournalLogHandler {
        JournalLogHandler(label: label, level: level, style: style, sink: writeToStandardError)
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let own = event.metadata { merged.merge(own) { $1 } }
        if let error = event.error { merged["error"] = "\(error)" }
        let timestamp = format.style == .journal ? "" : clock()
        sink(format.line(level: event.level, subsystem: label, message: "\(event.message)", metadata: merged, timestamp: timestamp) + "\n")
    }

    /// Local time to the millisecond: `2025-11-21 14:02:07.123`.
    @Sendable public static func localTimestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        localtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let milliseconds = Int(now.tv_nsec / 1_000_000)
        let fraction = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(fraction)"
    }

    /// One `write` per line, so lines from several threads never interleave mid-line.
    @Sendable static func writeToStandardError(_ line: String) {
        let bytes = Array(line.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
