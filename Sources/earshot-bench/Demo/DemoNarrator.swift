import Foundation

/// Turns the daemon's events into lines a person can follow, timed from when the recording
/// started playing.
struct DemoNarrator {
    private(set) var phase = "idle"
    private var start: Date?
    private var lastPartial = ""
    private var lastPartialShown = Date.distantPast

    mutating func startClock() {
        start = Date()
    }

    mutating func narrate(_ event: [String: Any]) {
        switch event["event"] as? String {
        case "state":
            let state = event["state"] as? String ?? "?"
            guard state != phase else { return }
            let previous = phase
            phase = state
            switch (previous, state) {
            case ("speaking", "hearing"):
                say("the reply stops: you interrupted (barge-in); hearing you")
            case (_, "listening"):
                say("listening")
            case (_, "hearing"):
                say("hearing you")
            case (_, "thinking"):
                say("thinking (the responder is answering)")
            case (_, "speaking"):
                say("speaking the reply")
            default:
                say(state)
            }
        case "speech":
            if event["phase"] as? String == "start" {
                say(phase == "speaking" ? "you start talking over the reply" : "you start talking")
            } else {
                say("you stop talking")
            }
        case "transcript":
            let text = event["text"] as? String ?? ""
            if event["final"] as? Bool == true {
                lastPartial = ""
                say("heard: \"\(text)\"")
            } else if text != lastPartial, !text.isEmpty, Date().timeIntervalSince(lastPartialShown) > 0.4 {
                // Partials change with every word pocketsphinx hears; a few per second are enough to follow.
                lastPartial = text
                lastPartialShown = Date()
                say("  … \"\(text)\"")
            }
        case "speaker":
            switch event["phase"] as? String {
            case "start", "say":
                say("earshot says: \"\(event["text"] as? String ?? "")\"")
            case "pause":
                say("(the reply pauses: you may be interrupting)")
            case "resume":
                say("(the reply resumes: it was nothing)")
            case "stop":
                say("(the reply stops)")
            default:
                return
            }
        case "error":
            say("problem: \(event["message"] as? String ?? "?")")
        default:
            return
        }
    }

    private func say(_ line: String) {
        let elapsed = start.map { Date().timeIntervalSince($0) } ?? 0
        print(String(format: "%6.2f s  ", elapsed) + line)
        fflush(nil)
    }
}
