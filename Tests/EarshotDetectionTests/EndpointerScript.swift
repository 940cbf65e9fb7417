@testable import EarshotDetection

/// Drives an endpointer with a scripted sequence of verdicts.
enum EndpointerScript {
    /// Verdicts from runs such as `"100- 50# 100-"`: each token is a frame count followed by
    /// `#` (speech) or `-` (non-speech); frames are numbered from 0.
    static func activities(_ runs: String) -> [VoiceActivity] {
        var activities: [VoiceActivity] = []
        for token in runs.split(separator: " ") {
            guard let count = Int(token.dropLast()), let kind = token.last, kind == "#" || kind == "-" else {
                preconditionFailure("bad run \(token)")
            }
            for _ in 0..<count {
                let isSpeech = kind == "#"
                activities.append(
                    VoiceActivity(frameIndex: activities.count, probability: isSpeech ? 0.9 : 0.1, isSpeech: isSpeech))
            }
        }
        return activities
    }

    /// Events keyed by the frame whose verdict produced them; with `finish`, the event returned
    /// by `finish()` is keyed by the frame after the last one.
    static func events(
        _ runs: String,
        configuration: Endpointer.Configuration = .init(),
        finish: Bool = false
    ) -> [Int: Endpointer.Event] {
        var endpointer = Endpointer(configuration: configuration)
        let activities = activities(runs)
        var events: [Int: Endpointer.Event] = [:]
        for activity in activities {
            if let event = endpointer.process(activity) { events[activity.frameIndex] = event }
        }
        if finish, let event = endpointer.finish() { events[activities.count] = event }
        return events
    }
}
