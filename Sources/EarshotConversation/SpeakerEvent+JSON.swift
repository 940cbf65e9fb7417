public import EarshotPipeline

extension SpeakerEvent {
    /// Appends this event as one JSON line in the form of the pipeline's events (`event` first,
    /// `t` last, fixed number formats): a `start` carries the reply's `voice`, `duration` and
    /// `text`; the others how far it had got (`position`).
    public func write(to json: inout JSONLineWriter) {
        json.beginObject()
        json.key("event")
        json.string("speaker")
        json.key("phase")
        json.string(phase.rawValue)
        json.key("reply")
        json.integer(reply)
        if let turn {
            json.key("turn")
            json.integer(turn)
        }
        if phase == .start {
            json.key("voice")
            json.string(voice)
            json.key("duration")
            json.number(duration, decimals: 2)
            json.key("text")
            json.string(text)
        } else {
            json.key("position")
            json.number(position, decimals: 2)
        }
        json.key("t")
        json.number(time, decimals: 2)
        json.endObject()
        json.endLine()
    }
}
