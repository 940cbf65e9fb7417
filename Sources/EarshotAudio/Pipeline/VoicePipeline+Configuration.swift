public import EarshotTurns

extension VoicePipeline {
    /// Everything that shapes the pipeline's behaviour; the same configuration on the same audio
    /// always yields the same events.
    public struct Configuration: Sendable {
        public var endpointer: Endpointer.Configuration
        public var levelMeter: LevelMeter.Configuration
        public var turns: TurnMachine<StreamClock>.Configuration
        /// Emit level readings of the microphone.
        public var emitsLevels: Bool
        /// Enter voice mode (`listening`) as the stream starts, as a hands-free session does.
        public var startsListening: Bool
        /// A transcriber takes each utterance (``SpeechWork``); without one an utterance yields
        /// an empty transcript at once and the turn returns to listening.
        public var transcribes: Bool
        /// Hand each utterance's audio out as ``SpeechWork`` even without a transcriber (the
        /// daemon's debug recording takes it); the turn still ends with an empty transcript.
        public var emitsUtteranceAudio: Bool
        /// Tell the turn machine of eager ends and resumed speech, so each turn's answer is
        /// prepared, unheard, while its end is confirmed. The owner then carries out
        /// `finalizeTranscript`, `continueUtterance`, `prepareSpeech` and `releasePlayback`. Front
        /// ends hear of eager ends either way.
        public var preparesEagerly: Bool
        /// Wait for a wake phrase before taking turns (see ``WakeGate``); nil: every utterance
        /// is a turn. The owner runs the phrase spotter on the ``SpeechWork`` wake audio and
        /// reports what it hears with ``VoicePipeline/wakePhraseHeard(atFrame:emit:work:)``.
        public var wake: WakeGate.Configuration?

        public init(
            endpointer: Endpointer.Configuration = .init(),
            levelMeter: LevelMeter.Configuration = .init(),
            turns: TurnMachine<StreamClock>.Configuration = .standard,
            emitsLevels: Bool = false,
            startsListening: Bool = true,
            transcribes: Bool = false,
            emitsUtteranceAudio: Bool = false,
            preparesEagerly: Bool = false,
            wake: WakeGate.Configuration? = nil
        ) {
            self.wake = wake
            self.preparesEagerly = preparesEagerly
            self.endpointer = endpointer
            self.levelMeter = levelMeter
            self.turns = turns
            self.emitsLevels = emitsLevels
            self.startsListening = startsListening
            self.transcribes = transcribes
            self.emitsUtteranceAudio = emitsUtteranceAudio
        }
    }
}
