public import EarshotTurns

/// What the pipeline asks of the microphone, the speech backends and the player: the turn
/// machine's effects as the machine gave them, and the utterances' audio. The pipeline performs
/// no I/O: its owner (replay, or the daemon) carries these out and reports back through
/// ``VoicePipeline/transcript(turn:text:final:sentenceEnd:coveredSamples:wordsEndSamples:emit:work:)`` and the machine's playback inputs.
public enum SpeechWork: Sendable {
    /// A turn machine effect for the owner to carry out. The pipeline keeps three for itself:
    /// `announceSpeech` and `reportError` become events, and `beginUtterance` comes as
    /// ``beginUtterance(turn:audio:)`` with its audio. `endUtterance`, `discardUtterance`,
    /// `finalizeTranscript` and `continueUtterance` come only while utterances' audio is handed
    /// out; after `continueUtterance` the audio comes as the new turn's.
    case effect(TurnEffect)
    /// Start transcribing `turn`. `audio` runs from the utterance's start (prefix padding
    /// included; after a barge-in, from the suspected onset) to the latest frame.
    case beginUtterance(turn: Int, audio: [AudioFrame])
    /// The next frame of `turn`'s utterance.
    case utteranceAudio(turn: Int, frame: AudioFrame)
    /// The person fell silent in `turn`'s utterance: audio held back to be handed on in batches
    /// goes to the transcriber now, so its words reach the pause while the end is judged.
    case utterancePaused(turn: Int)
    /// While voice mode waits for the wake phrase: speech began; `audio` runs from its onset
    /// less the prefix padding to the latest frame. The phrase spotter takes it.
    case beginWakeAudio(audio: [AudioFrame])
    /// The next frame of the speech the phrase spotter is taking.
    case wakeAudio(frame: AudioFrame)
    /// That speech ended (or the phrase was heard): the spotter forgets it.
    case endWakeAudio
    /// The phrase was heard: the wake cue plays.
    case wakeCue
}
