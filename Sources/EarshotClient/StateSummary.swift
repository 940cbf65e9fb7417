public import EarshotJSON

/// The voice UI's state (a `state` event, or the `state` of a response) in one line:
/// `listening · turn 3 · microphone on · controls: dismiss, mute`.
public enum StateSummary {
    public static func line(_ state: JSONValue) -> String {
        var parts = [state["state"]?.stringValue ?? "unknown state"]
        if let turn = state["turn"]?.integerValue { parts.append("turn \(turn)") }
        if let muted = state["muted"]?.boolValue { parts.append(muted ? "microphone muted" : "microphone on") }
        if let controls = state["controls"]?.arrayValue {
            let names = controls.compactMap(\.stringValue)
            parts.append(names.isEmpty ? "no controls" : "controls: " + names.joined(separator: ", "))
        }
        if let error = state["error"]?.stringValue { parts.append("after error \(error)") }
        return parts.joined(separator: " · ")
    }
}
