public import EarshotBase
public import EarshotProtocol
public import Foundation

/// `status`'s response as a labelled summary for people, one line per concern, parts the daemon
/// did not send left out.
public enum StatusSummary {
    static let labelWidth = 10
    /// How many of the daemon's last errors to show.
    static let shownErrors = 5

    public static func lines(_ status: DaemonStatus, timeZone: TimeZone = .current) -> [String] {
        var lines: [String] = []
        if let version = status.protocolVersion, version != DaemonStatus.currentProtocolVersion {
            lines.append(labelled(
                "protocol",
                "the daemon speaks protocol \(version); this earshot knows \(DaemonStatus.currentProtocolVersion): "
                    + "what follows may be incomplete (use the earshot that came with the daemon)"
            ))
        }
        if let state = status.state { lines.append(labelled("state", StateSummary.line(state))) }
        if let audio = status.audio { lines.append(labelled("audio", audioLine(audio))) }
        if let backends = status.backends {
            let parts = backends.sorted { $0.role < $1.role }.map { "\($0.role) \($0.name ?? "none")" }
            lines.append(labelled("backends", parts.isEmpty ? "none" : parts.joined(separator: " · ")))
        }
        if let listening = status.settings?[section: "listening"] {
            lines.append(labelled("listening", listeningLine(listening)))
        }
        if let file = status.configFile { lines.append(labelled("config", file)) }
        if let recording = status.recording { lines.append(labelled("recording", recordingLine(recording))) }
        if let uptime = status.uptime { lines.append(labelled("uptime", ReadableText.span(seconds: uptime))) }
        if let counters = status.counters { lines.append(labelled("counters", countersLine(counters))) }
        if let errors = status.errors {
            let shown = errors.suffix(shownErrors).map { errorLine(code: $0.code, message: $0.message, wall: $0.wall, timeZone: timeZone) }
            if shown.isEmpty {
                lines.append(labelled("errors", "none"))
            } else {
                lines.append(labelled("errors", shown[0]))
                lines += shown.dropFirst().map { labelled("", $0) }
            }
        }
        return lines
    }

    /// The summary of a response's JSON (`status`'s result keys; others are ignored).
    public static func lines(_ status: JSONValue, timeZone: TimeZone = .current) -> [String] {
        lines(DaemonStatus(fields: status.objectValue ?? [:]), timeZone: timeZone)
    }

    static func labelled(_ label: String, _ text: String) -> String {
        label.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + text
    }

    static func audioLine(_ audio: DaemonStatus.Audio) -> String {
        var parts: [String] = []
        switch audio.connected {
        case true?: parts.append("connected to " + (audio.server ?? "the sound server"))
        case false?: parts.append("not connected to the sound server")
        case nil: break
        }
        if let source = audio.source { parts.append("source " + (source.name ?? "none")) }
        if let sink = audio.sink { parts.append("sink " + (sink.name ?? "none")) }
        if let time = audio.audioTime { parts.append("audio time " + ReadableText.seconds(time)) }
        return parts.isEmpty ? ReadableText.value(.object(audio.fields)) : parts.joined(separator: " · ")
    }

    /// `vad threshold 0.5 · prefix padding 300 ms · min speech 150 ms · end silence 600 ms · eagerness medium`
    static func listeningLine(_ listening: DaemonStatus.Settings.Section) -> String {
        var parts: [String] = []
        if let threshold = listening["vad_threshold"] { parts.append("vad threshold \(ReadableText.value(threshold.json))") }
        for (key, words) in [("prefix_padding_ms", "prefix padding"), ("min_speech_ms", "min speech"), ("end_silence_ms", "end silence")] {
            if let value = listening[key]?.json.integerValue { parts.append("\(words) \(value) ms") }
        }
        if let eagerness = listening["eagerness"]?.json.stringValue { parts.append("eagerness \(eagerness)") }
        return parts.joined(separator: " · ")
    }

    /// `the last 5 turns, in ~/.local/state/earshot/recordings · 2 kept`, or `off (no audio is written to disk)`.
    static func recordingLine(_ recording: DaemonStatus.Recording) -> String {
        let turns = recording.debugTurns
        let kept = recording.kept
        let directory = recording.directory
        let keptText = "\(kept) turn\(kept == 1 ? "" : "s")"
        guard turns > 0 else {
            return kept == 0
                ? "off (no audio is written to disk)"
                : "off · \(keptText) recorded earlier in \(directory) (earshot forget deletes them)"
        }
        return "the last \(turns) turn\(turns == 1 ? "" : "s"), in \(directory) · \(kept) kept"
    }

    static let counterOrder = ["frames", "holes", "overflows", "clients", "dropped_levels", "reconnects"]

    static func countersLine(_ counters: [DaemonStatus.Counter]) -> String {
        let known = counterOrder.compactMap { name in counters.last { $0.name == name } }
        let others = counters.filter { !counterOrder.contains($0.name) }.sorted { $0.name < $1.name }
        return (known + others).map { "\(ReadableText.words($0.name)) \($0.value)" }.joined(separator: " · ")
    }

    /// `14:02:07  Sorry, no reply came back in time. (reply_timeout)`: `wall` is Unix seconds.
    public static func errorLine(code: String?, message: String?, wall: Double?, timeZone: TimeZone) -> String {
        var line = ""
        if let wall { line += ReadableText.timeOfDay(wall: wall, in: timeZone) + "  " }
        line += message ?? "An error with no message."
        if let code { line += " (\(code))" }
        return line
    }
}

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
