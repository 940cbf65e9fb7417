import EarshotJSON
import EarshotPipeline

extension SocketEvent {
    /// The event as the socket sends it: one JSON line, `event` first, then its keys, then
    /// `wall` (Unix seconds, 6 decimals) and `t` (audio seconds, 2 decimals).
    public func jsonLine(wall: Double) -> [UInt8] {
        switch self {
        case .pipeline(let event):
            var json = JSONLineWriter()
            event.write(to: &json, wall: wall)
            return json.bytes
        case .device(let event):
            return Self.line(
                [
                    "event": "device", "change": .string(event.change.rawValue), "source": .optional(event.source),
                    "sink": .optional(event.sink), "server": .optional(event.server),
                ],
                wall: wall,
                time: event.time
            )
        case .soundServerError(let error):
            var object: JSONObject = ["event": "error", "code": .string(error.code), "message": .string(error.message)]
            if let retryIn = error.retryIn {
                object.append("retry_in", .number(retryIn, decimals: FixedDecimal.shortestDecimals(retryIn, maximum: 3)))
            }
            return Self.line(object, wall: wall, time: error.time)
        case .speaker(let activity):
            return Self.line(speaker: activity, wall: wall)
        case .configReloaded(let event):
            let names = { (keys: [String]) in JSONValue.array(keys.map(JSONValue.string)) }
            return Self.line(
                [
                    "event": "config", "change": "reloaded", "file": .string(event.file), "applied": names(event.applied),
                    "restart_needed": names(event.restartNeeded), "overridden": names(event.overridden),
                ],
                wall: wall,
                time: event.time
            )
        }
    }

    private static func line(speaker activity: SpeakerActivity, wall: Double) -> [UInt8] {
        var object: JSONObject = ["event": "speaker", "phase": .string(activity.phase.rawValue), "reply": .integer(activity.reply)]
        if let voice = activity.voice { object.append("voice", .string(voice)) }
        if let text = activity.text { object.append("text", .string(text)) }
        return line(object, wall: wall, time: activity.time)
    }

    private static func line(_ object: JSONObject, wall: Double, time: Double) -> [UInt8] {
        var stamped = object
        stamped.append("wall", .number(wall, decimals: 6))
        stamped.append("t", .number(time, decimals: 2))
        var bytes: [UInt8] = []
        JSONValue.object(stamped).write(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}
