/// The voice UI's state (a `state` event, or the `state` of a response) in one line:
/// `listening · turn 3 · microphone on · controls: dismiss, mute`.
public enum StateSummary {
    public static func line(_ state: JSON) -> String {
        var parts = [state["state"]?.string ?? "unknown state"]
        if let turn = state["turn"]?.int { parts.append("turn \(turn)") }
        if let muted = state["muted"]?.bool { parts.append(muted ? "microphone muted" : "microphone on") }
        if let controls = state["controls"]?.array {
            let names = controls.compactMap(\.string)
            parts.append(names.isEmpty ? "no controls" : "controls: " + names.joined(separator: ", "))
        }
        if let error = state["error"]?.string { parts.append("after error \(error)") }
        return parts.joined(separator: " · ")
    }
}
