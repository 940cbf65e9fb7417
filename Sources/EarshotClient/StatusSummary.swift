public import EarshotJSON
public import Foundation

/// `status`'s response as a labelled summary for people, one line per concern, keys the daemon
/// did not send left out.
public enum StatusSummary {
    static let labelWidth = 10
    /// How many of the daemon's last errors to show.
    static let shownErrors = 5

    public static func lines(_ status: JSONValue, timeZone: TimeZone = .current) -> [String] {
        var lines: [String] = []
        if let state = status["state"] { lines.append(labelled("state", StateSummary.line(state))) }
        if let audio = status["audio"] { lines.append(labelled("audio", audioLine(audio))) }
        if let backends = status["backends"]?.objectValue {
            let parts = Set(backends.members.map(\.key)).sorted().map { "\($0) \(ReadableText.value(backends[$0]))" }
            lines.append(labelled("backends", parts.isEmpty ? "none" : parts.joined(separator: " · ")))
        }
        if let listening = status["settings"]?["listening"]?.objectValue {
            lines.append(labelled("listening", listeningLine(listening)))
        }
        if let file = status["config_file"]?.stringValue { lines.append(labelled("config", file)) }
        if let recording = status["recording"] { lines.append(labelled("recording", recordingLine(recording))) }
        if let uptime = status["uptime"]?.doubleValue { lines.append(labelled("uptime", ReadableText.span(seconds: uptime))) }
        if let counters = status["counters"]?.objectValue { lines.append(labelled("counters", countersLine(counters))) }
        if let errors = status["errors"]?.arrayValue {
            let shown = errors.suffix(shownErrors).map { errorLine($0, timeZone: timeZone) }
            if shown.isEmpty {
                lines.append(labelled("errors", "none"))
            } else {
                lines.append(labelled("errors", shown[0]))
                lines += shown.dropFirst().map { labelled("", $0) }
            }
        }
        return lines
    }

    static func labelled(_ label: String, _ text: String) -> String {
        label.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + text
    }

    static func audioLine(_ audio: JSONValue) -> String {
        var parts: [String] = []
        switch audio["connected"]?.boolValue {
        case true?: parts.append("connected to " + (audio["server"]?.stringValue ?? "the sound server"))
        case false?: parts.append("not connected to the sound server")
        case nil: break
        }
        if audio["source"] != nil { parts.append("source " + ReadableText.value(audio["source"])) }
        if audio["sink"] != nil { parts.append("sink " + ReadableText.value(audio["sink"])) }
        if let time = audio["audio_time"]?.doubleValue { parts.append("audio time " + ReadableText.seconds(time)) }
        return parts.isEmpty ? ReadableText.value(audio) : parts.joined(separator: " · ")
    }

    /// `vad threshold 0.5 · prefix padding 300 ms · min speech 150 ms · end silence 600 ms · eagerness medium`
    static func listeningLine(_ listening: JSONObject) -> String {
        var parts: [String] = []
        if let threshold = listening["vad_threshold"] { parts.append("vad threshold \(ReadableText.value(threshold))") }
        for (key, words) in [("prefix_padding_ms", "prefix padding"), ("min_speech_ms", "min speech"), ("end_silence_ms", "end silence")] {
            if let value = listening[key]?.integerValue { parts.append("\(words) \(value) ms") }
        }
        if let eagerness = listening["eagerness"]?.stringValue { parts.append("eagerness \(eagerness)") }
        return parts.joined(separator: " · ")
    }

    /// `the last 5 turns, in ~/.local/state/earshot/recordings · 2 kept`, or `off (no audio is written to disk)`.
    static func recordingLine(_ recording: JSONValue) -> String {
        let turns = recording["debug_turns"]?.integerValue ?? 0
        let kept = recording["kept"]?.integerValue ?? 0
        let directory = recording["directory"]?.stringValue ?? "the recordings directory"
        let keptText = "\(kept) turn\(kept == 1 ? "" : "s")"
        guard turns > 0 else {
            return kept == 0
                ? "off (no audio is written to disk)"
                : "off · \(keptText) recorded earlier in \(directory) (earshot forget deletes them)"
        }
        return "the last \(turns) turn\(turns == 1 ? "" : "s"), in \(directory) · \(kept) kept"
    }

    static let counterOrder = ["frames", "holes", "overflows", "clients", "dropped_levels", "reconnects"]

    static func countersLine(_ counters: JSONObject) -> String {
        let known = counterOrder.filter { counters[$0] != nil }
        let others = Set(counters.members.map(\.key)).filter { !counterOrder.contains($0) }.sorted()
        return (known + others).map { "\(ReadableText.words($0)) \(ReadableText.value(counters[$0]))" }
            .joined(separator: " · ")
    }

    /// `14:02:07  Sorry, no reply came back in time. (reply_timeout)`
    public static func errorLine(_ error: JSONValue, timeZone: TimeZone) -> String {
        errorLine(
            code: error["code"]?.stringValue, message: error["message"]?.stringValue, wall: error["wall"]?.doubleValue,
            timeZone: timeZone
        )
    }

    /// The same line from the error's parts: `wall` is Unix seconds.
    public static func errorLine(code: String?, message: String?, wall: Double?, timeZone: TimeZone) -> String {
        var line = ""
        if let wall { line += ReadableText.timeOfDay(wall: wall, in: timeZone) + "  " }
        line += message ?? "An error with no message."
        if let code { line += " (\(code))" }
        return line
    }
}
