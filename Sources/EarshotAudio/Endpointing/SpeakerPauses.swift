/// The pauses after which this speaker went on although their words could have ended the
/// sentence, in frames: the latest few, across the conversation. A speaker who has gone on
/// after such pauses is given as long again (a little more) before a finished-sounding turn
/// ends, up to the end-of-turn silence, as LiveKit's dynamic endpointing adapts to the speaker.
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
    private var count = 0

    /// The speaker went on after `frames` of silence that followed words a sentence ends on.
    mutating func wentOn(after frames: Int) {
        guard frames >= Self.shortestPause, frames <= Self.longestResumedGap else { return }
        pauses[count % Self.remembered] = frames
        count += 1
    }

    /// The silence that lets the longest remembered pause pass, or 0 when none is remembered.
    var patienceFrames: Int {
        var longest = 0
        for index in 0..<min(count, Self.remembered) { longest = max(longest, pauses[index]) }
        return longest == 0 ? 0 : longest + Self.margin
    }
}
