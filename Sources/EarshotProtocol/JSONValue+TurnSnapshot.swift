public import EarshotJSON
public import EarshotTurns
import EarshotPipeline

extension JSONValue {
    /// The `state` event's fields for `snapshot`: `state`, `turn`, `muted`, `controls` and, when
    /// set, `error`; the `state` result of `status` and the turn commands.
    public init(_ snapshot: TurnSnapshot) {
        var object: JSONObject = [
            "state": .string(snapshot.phase.rawValue),
            "turn": .integer(snapshot.turn),
            "muted": .bool(snapshot.muted),
            "controls": .array(snapshot.controls.names.map(JSONValue.string)),
        ]
        if let error = snapshot.error { object.append("error", .string(error.code)) }
        self = .object(object)
    }
}
