import EarshotProtocol

/// The last few errors, newest last, for `status`.
struct RecentErrors: Sendable {
    static let capacity = 10
    private(set) var entries: [DaemonStatus.ReportedError] = []

    mutating func record(code: String, message: String, wall: Double = WallClock.now()) {
        entries.append(DaemonStatus.ReportedError(code: code, message: message, wall: wall))
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
    }
}
