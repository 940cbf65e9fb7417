import EarshotAudio
import EarshotConversation
import EarshotProtocol
import EarshotTurns
import Testing

/// The pipeline's events and the turn machine's state and refusals in the protocol's terms.
@Suite struct PipelineWireTests {
    private func line(_ event: PipelineEvent) -> String {
        String(decoding: SocketEvent(event).jsonLine(), as: UTF8.self)
    }

    @Test func everyPipelineEventAsDocumented() {
        let lines: [(PipelineEvent, String)] = [
            (
                .state(TurnSnapshot(phase: .hearing, turn: 1, muted: false), time: 1.0),
                #"{"event":"state","state":"hearing","turn":1,"muted":false,"controls":["cancel","dismiss","mute"],"t":1.00}"#
            ),
            (
                .state(TurnSnapshot(phase: .listening, turn: 3, muted: false, error: .transcriptTimedOut(turn: 3)), time: 9.5),
                #"{"event":"state","state":"listening","turn":3,"muted":false,"controls":["dismiss","mute"],"error":"transcript_timeout","t":9.50}"#
            ),
            (
                .speechStarted(turn: 3, audioStart: 41.22, time: 41.52),
                #"{"event":"speech","phase":"start","turn":3,"audio_start":41.22,"t":41.52}"#
            ),
            (
                .speechEnded(turn: 3, reason: .falseInterruption, time: 43.07),
                #"{"event":"speech","phase":"end","turn":3,"reason":"false_interruption","t":43.07}"#
            ),
            (
                .level(.speaker, .init(time: 1.2, level: 0.476, rmsDBFS: -29.5, bands: .init(low: 0.365, lowMid: 0.478, highMid: 0.514, high: 0.323))),
                #"{"event":"level","source":"speaker","level":0.476,"rms_dbfs":-29.5,"bands":[0.365,0.478,0.514,0.323],"t":1.20}"#
            ),
            (
                .transcript(turn: 2, text: "turn on the \"kitchen\" lights", final: true, time: 3.13),
                #"{"event":"transcript","turn":2,"final":true,"text":"turn on the \"kitchen\" lights","t":3.13}"#
            ),
            (
                .error(.replyTimedOut(turn: 2), message: "Sorry, no reply came back in time.", time: 17.71),
                #"{"event":"error","code":"reply_timeout","message":"Sorry, no reply came back in time.","t":17.71}"#
            ),
        ]
        for (event, expected) in lines { #expect(line(event) == expected + "\n") }
    }

    @Test func thePipelinesRetriesAreAnnouncedToATenthOfASecond() {
        for (retryIn, written) in [(2.0, "2.0"), (0.25, "0.3"), (1.2345, "1.2"), (0.04, "0.0"), (15.96, "16.0")] {
            let event = PipelineEvent.error(.transcriberUnavailable(turn: 1), message: "Gone.", retryIn: retryIn, time: 1)
            #expect(line(event).contains(#""retry_in":\#(written),"#), "\(retryIn)")
        }
    }

    @Test func everyEndReasonAndPhaseKeepsItsName() {
        for reason in Endpointer.EndReason.allCases {
            #expect(SpeechEvent.EndReason(reason).rawValue == reason.rawValue)
        }
        for phase in TurnPhase.allCases {
            #expect(VoiceState.Phase(phase).rawValue == phase.rawValue)
        }
    }

    @Test func theStateShowsTheControlsInTheirOrder() {
        for phase in TurnPhase.allCases {
            for muted in [false, true] {
                let snapshot = TurnSnapshot(phase: phase, turn: 4, muted: muted)
                #expect(VoiceState(snapshot).controls.map(\.rawValue) == snapshot.controls.names)
            }
        }
        let failed = TurnSnapshot(phase: .listening, turn: 2, muted: true, error: .replyTimedOut(turn: 2))
        #expect(VoiceState(failed) == VoiceState(phase: .listening, turn: 2, muted: true, controls: [.dismiss, .unmute], error: "reply_timeout"))
    }

    @Test func turnRejectionsUseTheDocumentedCodes() {
        let codes: [(TurnRejection, String)] = [
            (.voiceModeOff, "voice_mode_off"), (.voiceModeAlreadyOn, "voice_mode_already_on"),
            (.alreadyMuted, "already_muted"), (.notMuted, "not_muted"), (.nothingPlaying, "nothing_playing"),
            (.nothingToCancel, "nothing_to_cancel"), (.unknownTurn(7), "rejected"),
        ]
        for (rejection, code) in codes { #expect(ProtocolError(rejection).code == code) }
        #expect(ProtocolError(.unknownTurn(7)).message == "The voice machine refused this: turn 7 has not happened.")
    }

    @Test func turnErrorsUseTheDocumentedCodes() {
        let codes: [(TurnError, String)] = [
            (.transcriptTimedOut(turn: 1), "transcript_timeout"), (.transcriberUnavailable(turn: 1), "transcriber_unavailable"),
            (.replyTimedOut(turn: 1), "reply_timeout"), (.playbackDidNotStart(turn: 1), "playback_not_started"),
            (.playbackTimedOut(turn: 1), "playback_timeout"),
        ]
        for (error, code) in codes { #expect(ProtocolError.Code(error).rawValue == code) }
    }
}
