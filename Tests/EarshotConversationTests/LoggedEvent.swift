import Foundation

/// One line of an event log, decoded: enough of it to check a conversation's course.
struct LoggedEvent: CustomStringConvertible {
    let fields: [String: Any]
    let line: String

    init?(_ line: Substring) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        fields = object
        self.line = String(line)
    }

    static func all(in log: String) -> [LoggedEvent] {
        log.split(separator: "\n").compactMap(LoggedEvent.init)
    }

    var event: String { fields["event"] as? String ?? "" }
    var t: Double { fields["t"] as? Double ?? -1 }
    var phase: String? { fields["phase"] as? String }
    var state: String? { fields["state"] as? String }
    var turn: Int? { fields["turn"] as? Int }
    var reply: Int? { fields["reply"] as? Int }
    var position: Double? { fields["position"] as? Double }

    func isSpeaker(_ phase: String, reply: Int) -> Bool {
        event == "speaker" && self.phase == phase && self.reply == reply
    }

    var description: String { line }
}
