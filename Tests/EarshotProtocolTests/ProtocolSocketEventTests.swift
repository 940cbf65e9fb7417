import EarshotBase
import EarshotProtocol
import Testing

/// Every kind of event in its one encoding: as the socket sends it (with `wall`) and as
/// `earshot replay` prints it (without).
@Suite struct ProtocolSocketEventTests {
    static let wall = 1_763_745_123.456

    private func text(_ event: SocketEvent, wall: Double? = wall) -> String {
        String(decoding: event.jsonLine(wall: wall), as: UTF8.self)
    }

    static let hearing = VoiceState(phase: .hearing, turn: 1, muted: false, controls: [.cancel, .dismiss, .mute])

    static let events: [SocketEvent] = [
        .state(StateEvent(state: hearing, time: 1.0)),
        .state(StateEvent(
            state: VoiceState(phase: .listening, turn: 3, muted: false, controls: [.dismiss, .mute], error: "transcript_timeout"),
            time: 9.5
        )),
        .speech(SpeechEvent(turn: 3, phase: .start(audioStart: 41.22), time: 41.52)),
        .speech(SpeechEvent(turn: 3, phase: .end(reason: .silence), time: 43.07)),
        .transcript(TranscriptEvent(turn: 1, text: "turn on the", isFinal: false, time: 1.87)),
        .level(LevelEvent(source: .mic, level: 0.476, rmsDBFS: -29.5, bands: [0.365, 0.478, 0.514, 0.323], time: 1.2)),
        .error(ErrorEvent(code: "reply_timeout", message: "Sorry, no reply came back in time.", time: 17.71)),
        .speaker(SpeakerEvent(phase: .pause, reply: 1, turn: 1, position: 2.26, time: 5.78)),
        .device(DeviceEvent(change: .sink, source: nil, sink: "x", server: nil, time: 0)),
        .config(ConfigReloadEvent(file: "f", applied: [], restartNeeded: [], overridden: [], time: 0)),
        .state(StateEvent(
            state: VoiceState(phase: .listening, turn: 0, muted: false, controls: [.dismiss, .mute], waitingFor: "hey computer"), time: 0
        )),
        .wake(WakeEvent(phrase: "hey computer", time: 1.83)),
    ]

    @Test func eachKindAsDocumented() {
        let lines = Self.events.map { text($0, wall: nil) }
        #expect(lines[0] == #"{"event":"state","state":"hearing","turn":1,"muted":false,"controls":["cancel","dismiss","mute"],"t":1.00}"# + "\n")
        #expect(lines[1] == #"{"event":"state","state":"listening","turn":3,"muted":false,"controls":["dismiss","mute"],"error":"transcript_timeout","t":9.50}"# + "\n")
        #expect(lines[2] == #"{"event":"speech","phase":"start","turn":3,"audio_start":41.22,"t":41.52}"# + "\n")
        #expect(lines[3] == #"{"event":"speech","phase":"end","turn":3,"reason":"silence","t":43.07}"# + "\n")
        #expect(lines[4] == #"{"event":"transcript","turn":1,"final":false,"text":"turn on the","t":1.87}"# + "\n")
        #expect(lines[5] == #"{"event":"level","source":"mic","level":0.476,"rms_dbfs":-29.5,"bands":[0.365,0.478,0.514,0.323],"t":1.20}"# + "\n")
        #expect(lines[6] == #"{"event":"error","code":"reply_timeout","message":"Sorry, no reply came back in time.","t":17.71}"# + "\n")
        #expect(lines[7] == #"{"event":"speaker","phase":"pause","reply":1,"turn":1,"position":2.26,"t":5.78}"# + "\n")
        #expect(lines[10] == #"{"event":"state","state":"listening","turn":0,"muted":false,"controls":["dismiss","mute"],"waiting_for":"hey computer","t":0.00}"# + "\n")
        #expect(lines[11] == #"{"event":"wake","phrase":"hey computer","t":1.83}"# + "\n")
    }

    @Test func speechEventAsDocumented() {
        #expect(
            text(.speech(SpeechEvent(turn: 3, phase: .start(audioStart: 41.22), time: 41.52)))
                == #"{"event":"speech","phase":"start","turn":3,"audio_start":41.22,"wall":1763745123.456000,"t":41.52}"#
                + "\n"
        )
    }

    @Test func eagerEndAndResumedAsDocumented() throws {
        let eagerEnd = SocketEvent.speech(SpeechEvent(turn: 1, phase: .eagerEnd, time: 2.31))
        let resumed = SocketEvent.speech(SpeechEvent(turn: 1, phase: .resumed, time: 3.44))
        #expect(text(eagerEnd, wall: nil) == #"{"event":"speech","phase":"eager_end","turn":1,"t":2.31}"# + "\n")
        #expect(text(resumed, wall: nil) == #"{"event":"speech","phase":"resumed","turn":1,"t":3.44}"# + "\n")
        for event in [eagerEnd, resumed] {
            let object = try #require(try JSONParser.parse(event.jsonLine(wall: Self.wall)).objectValue)
            #expect(try SocketEvent(object: object) == event)
        }
    }

    @Test(arguments: events)
    func socketFormIsTheReplayFormWithWallBeforeT(_ event: SocketEvent) {
        // Each of these lines has `,"t":` once, right before its last value.
        let expected = text(event, wall: nil).replacing(#","t":"#, with: #","wall":1763745123.456000,"t":"#)
        #expect(text(event) == expected)
        #expect(text(event).hasPrefix(#"{"event":"\#(event.topic.rawValue)","#))
    }

    @Test(arguments: events)
    func eachKindReadsBackAsItWasWritten(_ event: SocketEvent) throws {
        let object = try #require(try JSONParser.parse(event.jsonLine(wall: Self.wall)).objectValue)
        #expect(try SocketEvent(object: object) == event)
        #expect(SocketEvent.wall(of: object) == Self.wall)
    }

    @Test func anEventWithoutItsKeysIsNotRead() throws {
        let object = try #require(try JSONParser.parse(Array(#"{"event":"speech","phase":"end","turn":1,"t":2.11}"#.utf8)).objectValue)
        #expect(throws: MessageDecodingError(description: "a speech event has no \"reason\"")) { try SocketEvent(object: object) }
        #expect(throws: MessageDecodingError.self) { try SocketEvent(object: ["event": "weather", "t": 1]) }
    }

    @Test func wallHasMicrosecondPrecision() {
        let line = text(.speech(SpeechEvent(turn: 1, phase: .end(reason: .silence), time: 2.11)), wall: 1_700_000_000.123_456)
        #expect(line.contains(#""wall":1700000000.123456,"t":2.11}"#))
    }

    @Test func theStateEventHasTheKeysOfAResponsesState() {
        let state = VoiceState(phase: .listening, turn: 2, muted: true, controls: [.dismiss, .unmute], error: "reply_timeout")
        let line = text(.state(StateEvent(state: state, time: 3)), wall: nil)
        #expect(line == #"{"event":"state","# + JSONValue.object(state.fields).jsonText.dropFirst().dropLast() + #","t":3.00}"# + "\n")
    }

    @Test func deviceEvent() {
        let event = DeviceEvent(change: .connected, source: "alsa_input.usb", sink: "alsa_output.hdmi", server: "PulseAudio (on PipeWire 1.0.5)", time: 3.5)
        #expect(
            text(.device(event))
                == #"{"event":"device","change":"connected","source":"alsa_input.usb","sink":"alsa_output.hdmi","server":"PulseAudio (on PipeWire 1.0.5)","wall":1763745123.456000,"t":3.50}"#
                + "\n"
        )
        let gone = DeviceEvent(change: .disconnected, source: nil, sink: nil, server: nil, time: 4)
        #expect(text(.device(gone)).hasPrefix(#"{"event":"device","change":"disconnected","source":null,"sink":null,"server":null,"#))
    }

    @Test func anErrorCarriesRetryInWithAsFewDecimalsAsSayIt() {
        let lost = ErrorEvent(
            code: "sound_server_lost",
            message: "The sound server went away (Connection terminated); retrying in 0.5 s.",
            retryIn: 0.5,
            time: 12
        )
        #expect(
            text(.error(lost))
                == #"{"event":"error","code":"sound_server_lost","message":"The sound server went away (Connection terminated); retrying in 0.5 s.","retry_in":0.5,"wall":1763745123.456000,"t":12.00}"#
                + "\n"
        )
        for (retryIn, written) in [(2.0, "2.0"), (0.25, "0.25"), (0.125, "0.125"), (1.0 / 3.0, "0.333")] {
            var error = lost
            error.retryIn = retryIn
            #expect(text(.error(error)).contains(#""retry_in":\#(written),"#))
        }
        var noRetry = lost
        noRetry.retryIn = nil
        #expect(!text(.error(noRetry)).contains("retry_in"))
    }

    @Test func everyEventHasItsTopic() {
        let topics = Self.events.map(\.topic)
        #expect(topics == [.state, .state, .speech, .speech, .transcript, .level, .error, .speaker, .device, .config, .state, .wake])
    }
}
