import EarshotProtocol
import EarshotTurns

/// The one place the daemon's `speaker` events are made: from the turn machine's effects on a
/// reply (pause, resume) and from what the player reports of it (its sentences, its end, its
/// stop). Every other effect and report sends none.
extension SpeakerEvent {
    init?(_ effect: TurnEffect, time: Double) {
        switch effect {
        case .pausePlayback(let reply):
            self.init(phase: .pause, reply: reply, time: time)
        case .resumePlayback(let reply):
            self.init(phase: .resume, reply: reply, time: time)
        case .openMicrophone, .closeMicrophone, .silenceMicrophone, .playCue, .preview, .announceSpeech, .beginUtterance,
            .endUtterance, .discardUtterance, .requestReply, .discardReply, .synthesize, .continueSpeech, .stopPlayback,
            .reportError, .finalizeTranscript, .continueUtterance, .rejoinUtterance, .prepareSpeech, .releasePlayback,
            .beginHeldUtterance, .endHeldUtterance:
            // A stop is told once the player has stopped, by its report; a held reply's start
            // once it is released and plays.
            return nil
        }
    }

    init?(_ report: PlaybackReport, time: Double) {
        switch report {
        case .saying(let reply, let voice, let text, let first):
            // The reply's first sentence is its start, and names the voice.
            self.init(phase: first ? .start : .say, reply: reply, voice: first ? voice : nil, text: text, time: time)
        case .stopped(let reply):
            self.init(phase: .stop, reply: reply, time: time)
        case .finished(let reply):
            self.init(phase: .end, reply: reply, time: time)
        case .started, .failed, .heard:
            return nil
        }
    }
}
