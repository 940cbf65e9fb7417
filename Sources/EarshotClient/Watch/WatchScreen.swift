public import Foundation

/// Draws a `WatchModel` as the lines of `earshot watch`'s screen. Pure: the same model and width
/// give the same lines, none longer than the width.
///
/// ```
/// Earshot · connected to /run/user/1000/earshot/earshot.sock · up 1 h 02 min 05 s
///
/// State     HEARING · turn 3 · microphone on
/// Controls  [c] cancel  [d] dismiss  [m] mute
/// Mic       ██████████████░░░░░░░░░░░░░░░░  0.48  -29.5 dBFS
///  <300 Hz  ███████░░░░░░░░░░░░░░░░░░░░░░░  0.37
///  …
/// Utterance turn 3 · start 41.52 s · end 43.10 s · lasted 1.58 s
/// Audio     connected to PulseAudio 16.1 · source … · sink …
/// Errors    14:02:07  Sorry, no reply came back in time. (reply_timeout)
///
/// q or Ctrl-C quits
/// ```
public struct WatchScreen: Sendable {
    /// Where error times are shown as times of day.
    public var timeZone: TimeZone

    static let labelWidth = 10
    /// A bar never grows past this: wider is no easier to read.
    static let maximumBarWidth = 60
    static let bandLabels = [" <300 Hz", " 0.3-1 k", " 1-3 kHz", " >3 kHz"]

    public init(timeZone: TimeZone = .current) {
        self.timeZone = timeZone
    }

    /// The screen for `model` on a terminal `width` columns wide.
    public static func render(_ model: WatchModel, width: Int) -> [String] {
        WatchScreen().render(model, width: width)
    }

    public func render(_ model: WatchModel, width: Int) -> [String] {
        var lines = [headline(model), ""]
        lines.append(labelled("State", stateText(model)))
        lines.append(labelled("Controls", controlsText(model)))
        if let notice = model.notice { lines.append(labelled("Note", notice)) }
        lines += meterLines("Mic", model.mic, note: micNote(model), width: width)
        if let speaker = model.speaker { lines += meterLines("Speaker", speaker, note: nil, width: width) }
        lines.append(labelled("Utterance", utteranceText(model.utterance)))
        lines.append(labelled("Audio", audioText(model.audio)))
        if let replies = model.replies { lines.append(labelled("Replies", replies)) }
        if model.errors.isEmpty {
            lines.append(labelled("Errors", "none"))
        } else {
            for (index, error) in model.errors.enumerated() {
                lines.append(labelled(index == 0 ? "Errors" : "", errorLine(error)))
            }
        }
        if case .lost = model.connection {} else { lines += ["", "\(WatchKeys.quit) or Ctrl-C quits"] }
        return lines.map { ReadableText.clipped($0, to: width) }
    }

    func headline(_ model: WatchModel) -> String {
        switch model.connection {
        case .connecting:
            return "Earshot · connecting to \(model.socketPath)…"
        case .connected:
            let uptime = model.uptime.map { " · up " + ReadableText.span(seconds: $0) } ?? ""
            return "Earshot · connected to \(model.socketPath)" + uptime
        case .lost(let reason):
            return "Earshot · the daemon went away: \(reason)"
        }
    }

    func stateText(_ model: WatchModel) -> String {
        guard let state = model.state else { return "unknown yet" }
        var parts = [state.uppercased(), "turn \(model.turn)", model.muted ? "microphone muted" : "microphone on"]
        if let error = model.stateError { parts.append("after error \(error)") }
        if let phrase = model.waitingFor { parts.append("Say '\(phrase)'") }
        if case .lost = model.connection { parts.append("last known") }
        return parts.joined(separator: " · ")
    }

    /// `[c] cancel  [d] dismiss  [m] mute`: each control with the key that sends it.
    func controlsText(_ model: WatchModel) -> String {
        if case .lost = model.connection { return "none: nothing to control" }
        if model.state == "idle" { return "[\(WatchKeys.start)] start voice mode" }
        guard !model.controls.isEmpty else { return "none" }
        return model.controls.map { control in
            WatchKeys.key(for: control).map { "[\($0)] \(control)" } ?? control
        }.joined(separator: "  ")
    }

    func micNote(_ model: WatchModel) -> String? {
        if model.muted { return "muted" }
        if model.state == "idle" { return "voice mode off" }
        return nil
    }

    func utteranceText(_ utterance: WatchModel.Utterance?) -> String {
        guard let utterance else { return "none yet" }
        var parts = ["turn \(utterance.turn)"]
        parts.append("start " + (utterance.start.map(ReadableText.seconds) ?? "before the watch began"))
        if let end = utterance.end {
            parts.append("end " + ReadableText.seconds(end))
            if let duration = utterance.duration { parts.append("lasted " + ReadableText.seconds(duration)) }
        } else if let mayHaveEnded = utterance.mayHaveEnded {
            parts.append("may be over at " + ReadableText.seconds(mayHaveEnded))
        } else {
            parts.append("still speaking")
        }
        if utterance.resumptions > 0 { parts.append("went on after \(utterance.resumptions) pause\(utterance.resumptions == 1 ? "" : "s")") }
        return parts.joined(separator: " · ")
    }

    func audioText(_ audio: WatchModel.AudioRoute) -> String {
        var parts: [String] = []
        switch audio.connected {
        case true?: parts.append("connected to " + (audio.server ?? "the sound server"))
        case false?: parts.append("not connected to the sound server")
        case nil: parts.append("sound server unknown")
        }
        if let source = audio.source { parts.append("source " + source) }
        if let sink = audio.sink { parts.append("sink " + sink) }
        return parts.joined(separator: " · ")
    }

    func errorLine(_ error: WatchModel.ErrorNote) -> String {
        StatusSummary.errorLine(code: error.code, message: error.message, wall: error.wall, timeZone: timeZone)
    }

    func labelled(_ label: String, _ text: String) -> String {
        label.padding(toLength: Self.labelWidth, withPad: " ", startingAt: 0) + text
    }
}

// MARK: Meters

extension WatchScreen {
    /// The bar's width in a terminal `width` columns wide: what is left beside the label and the
    /// numbers, at most `maximumBarWidth`.
    public static func barWidth(forTerminalWidth width: Int) -> Int {
        min(maximumBarWidth, max(0, width - labelWidth - meterSuffixWidth))
    }

    /// `"  0.48  -29.5 dBFS"`.
    static let meterSuffixWidth = 18

    /// `level` (0…1) as a bar of `width` cells, filled in proportion.
    public static func bar(level: Double, width: Int) -> String {
        let width = max(0, width)
        let clamped = level.isFinite ? min(1, max(0, level)) : 0
        let filled = Int((clamped * Double(width)).rounded())
        return String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    }

    /// The meter's level bar, then one bar per band.
    func meterLines(_ label: String, _ meter: WatchModel.Meter?, note: String?, width: Int) -> [String] {
        let barWidth = Self.barWidth(forTerminalWidth: width)
        var levelLine = labelled(label, Self.bar(level: meter?.level ?? 0, width: barWidth))
        if let meter {
            levelLine += "  " + String(format: "%.2f", meter.level)
            if let rms = meter.rmsDBFS { levelLine += "  " + String(format: "%.1f dBFS", rms) }
        } else {
            levelLine += "  " + (note ?? "no reading")
        }
        let bands = meter?.bands ?? []
        let bandLines = Self.bandLabels.enumerated().map { index, bandLabel in
            let value = index < bands.count ? bands[index] : 0
            let reading = index < bands.count ? "  " + String(format: "%.2f", value) : ""
            return labelled(bandLabel, Self.bar(level: value, width: barWidth)) + reading
        }
        return [levelLine] + bandLines
    }
}
