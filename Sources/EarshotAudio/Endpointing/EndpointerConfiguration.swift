extension Endpointer {
    /// Timing of the endpointer, in milliseconds; each value is rounded up to whole 10 ms frames
    /// and negative values count as zero.
    public struct Configuration: Equatable, Sendable {
        /// Audio before the onset that belongs to the utterance (default 300 ms).
        public var prefixPaddingMilliseconds: Int
        /// Speech needed before an onset becomes an utterance; shorter bursts are rejected
        /// (default 150 ms, at least one frame).
        public var minimumSpeechMilliseconds: Int
        /// Non-speech that ends an utterance where nothing in how it ended is sure; shorter inner
        /// pauses do not split it (default 600 ms, at least one frame). A turn that sounded
        /// finished ends sooner and one that sounded unfinished later, as `eagerness` sets.
        public var endOfTurnSilenceMilliseconds: Int
        /// Non-speech that ends a turn whose words and sound both say it is finished (a sentence
        /// ending on a word it can end on, with a final fall; a short command): default 250 ms.
        public var finishedTurnSilenceMilliseconds: Int
        /// Non-speech after which a turn may be over (default 150 ms, scaled like the finished-turn
        /// silence by `eagerness`): an `eagerEnd` goes out, and a reply can be prepared unheard
        /// while the silence that ends the turn is waited for.
        public var eagerEndSilenceMilliseconds: Int
        /// The longest non-speech a turn is waited for: one whose words so far cannot end a
        /// sentence ("set the oven to …") ends only after it (default 1400 ms).
        public var maximumEndSilenceMilliseconds: Int
        /// The language spoken (BCP 47): which ``TurnWords`` judge the transcript so far.
        public var language: String
        /// How soon a turn that sounded finished is ended, against the risk of splitting a turn
        /// at a pause (default medium).
        public var eagerness: Eagerness
        /// How long a pitch must hold before an onset counts as speech, where the detector
        /// reports voicing (default 80 ms): clicks, knocks, key ticks and coughs hold none so long.
        public var minimumVoicedMilliseconds: Int
        /// Longest non-speech gap tolerated between an onset and its confirmation (default 20 ms);
        /// a longer gap rejects the onset.
        public var onsetGapToleranceMilliseconds: Int
        /// Time from an onset within which the minimum speech must be confirmed, or the onset is
        /// rejected (default 600 ms, at least the minimum speech). It bounds how far back
        /// `audioStartFrame` can lie when `speechStarted` arrives.
        public var maximumOnsetWindowMilliseconds: Int
        /// Probability a speech frame needs to count towards the minimum speech (default 0.5).
        /// Speech frames below it, such as a detector's hangover after a short noise burst, keep
        /// an onset or an utterance going but do not confirm it; 0 counts every speech frame.
        public var confirmingSpeechProbability: Float

        public init(
            prefixPaddingMilliseconds: Int = 300,
            minimumSpeechMilliseconds: Int = 150,
            endOfTurnSilenceMilliseconds: Int = 600,
            finishedTurnSilenceMilliseconds: Int = 250,
            maximumEndSilenceMilliseconds: Int = 1400,
            language: String = "en-US",
            onsetGapToleranceMilliseconds: Int = 20,
            maximumOnsetWindowMilliseconds: Int = 600,
            confirmingSpeechProbability: Float = 0.5,
            eagerness: Eagerness = .medium,
            minimumVoicedMilliseconds: Int = 70,
            eagerEndSilenceMilliseconds: Int = 150
        ) {
            self.eagerEndSilenceMilliseconds = eagerEndSilenceMilliseconds
            self.eagerness = eagerness
            self.minimumVoicedMilliseconds = minimumVoicedMilliseconds
            self.prefixPaddingMilliseconds = prefixPaddingMilliseconds
            self.minimumSpeechMilliseconds = minimumSpeechMilliseconds
            self.endOfTurnSilenceMilliseconds = endOfTurnSilenceMilliseconds
            self.finishedTurnSilenceMilliseconds = finishedTurnSilenceMilliseconds
            self.maximumEndSilenceMilliseconds = maximumEndSilenceMilliseconds
            self.language = language
            self.onsetGapToleranceMilliseconds = onsetGapToleranceMilliseconds
            self.maximumOnsetWindowMilliseconds = maximumOnsetWindowMilliseconds
            self.confirmingSpeechProbability = confirmingSpeechProbability
        }

        public var prefixPaddingFrames: Int { Self.frames(prefixPaddingMilliseconds) }
        public var minimumSpeechFrames: Int { max(1, Self.frames(minimumSpeechMilliseconds)) }
        public var endOfTurnSilenceFrames: Int { max(1, Self.frames(endOfTurnSilenceMilliseconds)) }
        public var finishedTurnSilenceFrames: Int { max(1, Self.frames(finishedTurnSilenceMilliseconds)) }
        public var maximumEndSilenceFrames: Int { max(1, Self.frames(maximumEndSilenceMilliseconds)) }
        public var eagerEndSilenceFrames: Int { max(1, Self.frames(eagerEndSilenceMilliseconds)) }
        public var onsetGapToleranceFrames: Int { Self.frames(onsetGapToleranceMilliseconds) }
        public var minimumVoicedFrames: Int { Self.frames(minimumVoicedMilliseconds) }

        /// Longest possible span from an onset to the frame that confirms it, inclusive.
        public var maximumOnsetWindowFrames: Int {
            max(minimumSpeechFrames, Self.frames(maximumOnsetWindowMilliseconds))
        }

        /// Frames of audio a pipeline's ring of recent frames must hold so that, when
        /// `speechStarted` arrives, the audio from its `audioStartFrame` is still there:
        /// prefix padding + an onset window the onset may continue (one that ran out) and the
        /// gap tolerated before it + the onset's own window + the detector's look-ahead (the
        /// verdict that confirms an onset is produced only after `lookaheadFrames` newer frames
        /// were fed). With the defaults and a 3-frame look-ahead: 30 + 60 + 2 + 60 + 3 = 155
        /// frames (1.55 s).
        public func historyFrames(lookaheadFrames: Int) -> Int {
            prefixPaddingFrames + 2 * maximumOnsetWindowFrames + onsetGapToleranceFrames + max(0, lookaheadFrames)
        }

        private static func frames(_ milliseconds: Int) -> Int {
            let frameMilliseconds = 10
            return (max(0, milliseconds) + frameMilliseconds - 1) / frameMilliseconds
        }
    }

    /// How soon the end of a turn is decided, in the spirit of OpenAI's `semantic_vad` eagerness:
    /// each judgement of how the turn ended scales the configured silence for it.
    public enum Eagerness: String, CaseIterable, Sendable {
        /// Waits longer: fewer turns split at a pause, slower replies.
        case low
        case medium
        /// Ends turns that sounded finished soonest: quicker replies, more splits at pauses.
        case high

        /// The share of the finished-turn silence that ends a turn whose words and sound say it
        /// is finished.
        public var finishedShare: Float {
            switch self {
            case .low: 1.6
            case .medium: 1
            case .high: 0.6
            }
        }

        /// The share of the longest end silence that ends a turn whose words cannot end a sentence.
        public var unfinishedWordsShare: Float {
            switch self {
            case .low: 1.25
            case .medium: 1
            case .high: 0.75
            }
        }

        /// The share of the configured end-of-turn silence that ends a turn after `ending`, judged
        /// from its sound alone (no words heard): below 1 ends it sooner, above 1 later.
        public func silenceShare(after ending: Endpointer.Ending) -> Float {
            switch (self, ending) {
            case (.low, .shortCommand): 0.8
            case (.low, .finalFall), (.low, .unsure): 1
            case (.low, .rise): 1.5
            case (.low, .heldLevel): 2
            case (.medium, .shortCommand): 0.6
            case (.medium, .finalFall), (.medium, .unsure), (.medium, .rise): 1
            case (.medium, .heldLevel): 1.5
            case (.high, .shortCommand): 0.45
            case (.high, .finalFall): 0.6
            case (.high, .unsure): 0.8
            case (.high, .rise): 1
            case (.high, .heldLevel): 1.25
            }
        }
    }
}
