public import EarshotJSON
public import EarshotProtocol

/// The voice UI's state (a `state` event, or the `state` of a response) in one line:
/// `listening · turn 3 · microphone on · controls: dismiss, mute`.
public enum StateSummary {
    public static func line(_ state: VoiceState?) -> String {
        guard let state else { return "unknown state" }
        var parts = [state.phase.rawValue, "turn \(state.turn)", state.muted ? "microphone muted" : "microphone on"]
        parts.append(state.controls.isEmpty ? "no controls" : "controls: " + state.controls.map(\.rawValue).joined(separator: ", "))
        if let error = state.error { parts.append("after error \(error)") }
        return parts.joined(separator: " · ")
    }

    /// The line of a state's JSON object.
    public static func line(_ state: JSONValue) -> String {
        line(state.objectValue.flatMap { try? VoiceState(fields: $0) })
    }
}
