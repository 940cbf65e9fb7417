import EarshotJSON
import EarshotProtocol

/// The last few errors, newest last, for `status`.
struct RecentErrors: Sendable {
    struct Entry: Sendable {
        var code: String
        var message: String
        var wall: Double
    }

    static let capacity = 10
    private(set) var entries: [Entry] = []

    mutating func record(code: String, message: String, wall: Double = WallClock.now()) {
        entries.append(Entry(code: code, message: message, wall: wall))
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
    }

    var json: JSONValue {
        .array(entries.map { entry in
            .object(["code": .string(entry.code), "message": .string(entry.message), "wall": .number(entry.wall, decimals: 3)])
        })
    }
}
