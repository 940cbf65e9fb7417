import EarshotJSON
import EarshotPipeline
import EarshotPipelineWire
import EarshotProtocol
import EarshotSpeech
import EarshotTurns

extension VoiceSession {
    /// Gives the turn machine what the speech player reported (it ignores a preview's).
    func handle(_ report: PlaybackReport) {
        switch report {
        case .saying(let reply, let voice, let text, let first):
            publish(.speaker(SpeakerEvent(phase: first ? .start : .say, reply: reply, voice: first ? voice : nil, text: text, time: audioTime)))
        case .stopped(let reply):
            publish(.speaker(SpeakerEvent(phase: .stop, reply: reply, time: audioTime)))
        case .started(let reply):
            _ = apply { $0.playbackStarted(reply: reply) }
        case .finished(let reply):
            publish(.speaker(SpeakerEvent(phase: .end, reply: reply, time: audioTime)))
            _ = apply { $0.playbackFinished(reply: reply) }
        case .failed(let reply, let message):
            reportError(code: "speech_failed", message: message)
            _ = apply { $0.playbackFinished(reply: reply) }
        }
    }

    /// Starts the reply to `turn` with the responder's first piece, more to follow; returns the
    /// reply's number, or nil when the turn no longer wants one.
    func startStreamedReply(turn: Int, text: String) -> Int? {
        let action = applyForAction { $0.replyRequested(turn: turn, text: text, continues: true) }
        for case .synthesize(let reply, _, _, _) in action.effects { return reply }
        return nil
    }

    /// The responder had nothing to say to `turn`: back to listening.
    func declineReply(turn: Int) {
        _ = apply { $0.replyRequested(turn: turn, text: "") }
    }

    /// The voices, the current one marked, as `voices` answers.
    var voiceListing: JSONValue {
        let current = currentVoice.id
        return .array(voices.voices.map { voice in
            .object([
                "id": .string(voice.id), "name": .string(voice.displayName), "description": .string(voice.summary),
                "language": .string(voice.language), "current": .bool(voice.id == current),
            ])
        })
    }

    /// Finds a voice by id or display name, or says which exist.
    func voice(named name: String) -> Result<Voice, ProtocolError> {
        if let voice = voices.voice(named: name) { return .success(voice) }
        let known = voices.voices.map(\.id).joined(separator: ", ")
        return .failure(ProtocolError(code: "unknown_voice", message: "There is no voice called \"\(name)\". Voices: \(known)."))
    }

    /// Says `text` through the turn machine (as a reply, or unprompted), in `voice` if given.
    func speak(_ text: String, voice: Voice?, turn: Int?) -> Result<TurnSnapshot, ProtocolError> {
        guard player != nil else {
            return .failure(ProtocolError(code: "speech_off", message: "Speech is off: start earshotd with --tts embedded or a Wyoming server."))
        }
        return apply { $0.replyRequested(turn: turn, text: text, voice: voice?.id) }
    }

    /// Speaks a sample line in `voice`: outside voice mode straight to the speaker, in voice
    /// mode as an unprompted reply so the microphone knows it is the assistant talking.
    func preview(_ voice: Voice) -> Result<TurnSnapshot, ProtocolError> {
        let line = "Hi, I'm \(voice.displayName). \(voice.summary)"
        guard player != nil else { return speak(line, voice: voice, turn: nil) }
        return apply { $0.preview(text: line, voice: voice.id) }
    }
}
