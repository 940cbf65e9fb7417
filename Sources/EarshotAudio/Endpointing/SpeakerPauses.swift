/// The pauses after which this speaker went on although their words could have ended the
/// sentence, in frames: the latest few, across the conversation. A speaker who has gone on
/// after such pauses is given as long again (a little more) before a finished-sounding turn
/// ends, up to the end-of-turn silence, as LiveKit's dynamic endpointing adapts to the speaker;
/// each such end the speaker did not go on after forgets the oldest, so the patience fades once
/// they stop pausing so.
struct SpeakerPauses: Sendable {
    static let remembered = 3
    /// Pauses shorter than this, frames, are the gaps between words, not pauses.
    static let shortestPause = 15
    /// Gaps longer than this between one utterance's end and the next one's onset, frames, are
    /// new turns, not a turn the endpointer split.
    static let longestResumedGap = 150
    /// The margin added to the longest remembered pause, frames.
    static let margin = 10

    private var pauses: [3 of Int] = .init(repeating: 0)
    /// The slot the next pause goes to; the newest is the one before it.
    private var next = 0
    private var stored = 0

    /// The speaker went on after `frames` of silence that followed words a sentence ends on.
    mutating func wentOn(after frames: Int) {
        guard frames >= Self.shortestPause, frames <= Self.longestResumedGap else { return }
        pauses[next] = frames
        next = (next + 1) % Self.remembered
        stored = min(stored + 1, Self.remembered)
    }

    /// The speaker spoke again `frames` after an utterance ended as finished: going on within
    /// the longest resumed gap, a new turn after it.
    mutating func spokeAgain(after frames: Int) {
        if frames > Self.longestResumedGap { stoppedAsJudged() } else { wentOn(after: frames) }
    }

    /// An utterance ended as finished and the speaker did not go on: the oldest pause is forgotten.
    mutating func stoppedAsJudged() {
        stored = max(0, stored - 1)
    }

    /// The silence that lets the longest remembered pause pass, or 0 when none is remembered.
    var patienceFrames: Int {
        var longest = 0
        for back in 0..<stored { longest = max(longest, pauses[(next - 1 - back + 2 * Self.remembered) % Self.remembered]) }
        return longest == 0 ? 0 : longest + Self.margin
    }
}
