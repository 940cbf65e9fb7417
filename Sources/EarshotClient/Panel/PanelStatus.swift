import EarshotBase
public import EarshotProtocol

/// What a status bar shows of Earshot: the voice UI's state, or that the daemon is not running.
public enum PanelStatus: Hashable, Sendable {
    case voice(VoiceState)
    /// Nothing answers on the socket; `reason` says why, in words.
    case notRunning(reason: String)

    /// How the state looks: waybar's `class` and `alt`, one word a style sheet can colour.
    public var look: String {
        switch self {
        case .notRunning:
            "not-running"
        case .voice(let state):
            switch state.phase {
            case .idle: "off"
            case .listening: state.muted ? "muted" : "listening"
            case .hearing, .thinking, .speaking: state.phase.rawValue
            }
        }
    }

    /// The word on the bar.
    public var text: String {
        if case .notRunning = self { return "not running" }
        return look
    }

    /// The longer line shown on hover.
    public var tooltip: String {
        switch self {
        case .notRunning(let reason):
            return "Earshot is not running: \(reason)"
        case .voice(let state):
            var line = switch state.phase {
            case .idle: "Earshot: voice mode is off"
            case .listening: state.muted ? "Earshot: voice mode is on, the microphone muted" : "Earshot is listening"
            case .hearing: "Earshot hears you (turn \(state.turn))"
            case .thinking: "Earshot is thinking about turn \(state.turn)"
            case .speaking: "Earshot is speaking"
            }
            if state.muted, state.phase != .listening { line += " · microphone muted" }
            if let error = state.error { line += " · last turn: \(error.replacingUnderscores)" }
            return line
        }
    }

    /// The status as `format` prints it: one line, without its newline.
    public func line(_ format: PanelFormat) -> String {
        switch format {
        case .plain:
            return text
        case .waybar:
            // Waybar reads `text` and `tooltip` as Pango markup.
            let object: JSONObject = [
                "text": .string(text.markupEscaped), "alt": .string(look), "tooltip": .string(tooltip.markupEscaped),
                "class": .string(look),
            ]
            return JSONValue.object(object).jsonText
        }
    }
}

/// The line formats of `earshot status --format`.
public enum PanelFormat: String, CaseIterable, Sendable {
    /// Waybar's custom module with `"return-type": "json"`: `text`, `alt`, `tooltip`, `class`.
    case waybar
    /// One word a line, for i3blocks and polybar.
    case plain
}

extension String {
    /// The text with Pango markup's special characters escaped.
    fileprivate var markupEscaped: String {
        var escaped = ""
        for character in self {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    fileprivate var replacingUnderscores: String {
        String(map { $0 == "_" ? " " : $0 })
    }
}
