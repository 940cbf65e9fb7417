@testable import EarshotAudio

/// Drives an endpointer with a scripted sequence of verdicts.
enum EndpointerScript {
    /// Verdicts from runs such as `"100- 50# 100-"`: each token is a frame count followed by
    /// `#` (confident speech, probability 0.9), `+` (speech at probability 0.3, like a detector's
    /// hangover) or `-` (non-speech, probability 0.1); frames are numbered from 0.
    static func activities(_ runs: String) -> [VoiceActivity] {
        var activities: [VoiceActivity] = []
        for token in runs.split(separator: " ") {
            let probabilities: [Character: Float] = ["#": 0.9, "+": 0.3, "-": 0.1]
            guard let count = Int(token.dropLast()), let kind = token.last, let probability = probabilities[kind] else {
                preconditionFailure("bad run \(token)")
            }
            for _ in 0..<count {
                activities.append(
                    VoiceActivity(frameIndex: activities.count, probability: probability, isSpeech: kind != "-"))
            }
        }
        return activities
    }

    /// Events keyed by the frame whose verdict produced them; with `finish`, the event returned
    /// by `finish()` is keyed by the frame after the last one. Eager ends and resumptions are
    /// left out unless `eager` asks for them: most tests are about the boundaries.
    static func events(
        _ runs: String,
        configuration: Endpointer.Configuration = .init(),
        finish: Bool = false,
        eager: Bool = false
    ) -> [Int: Endpointer.Event] {
        var endpointer = Endpointer(configuration: configuration)
        let activities = activities(runs)
        var events: [Int: Endpointer.Event] = [:]
        for activity in activities {
            if let event = endpointer.process(activity), eager || event.isBoundary { events[activity.frameIndex] = event }
        }
        if finish, let event = endpointer.finish() { events[activities.count] = event }
        return events
    }
}

extension Endpointer.Event {
    /// Whether this is an onset or an end, not an eager end or a resumption.
    var isBoundary: Bool {
        switch self {
        case .onsetSuspected, .speechStarted, .onsetRejected, .speechEnded: true
        case .eagerEnd, .speechResumed: false
        }
    }
}
