import EarshotJSON
import EarshotPipeline
import EarshotProtocol
import EarshotTurns
import Testing

@Suite struct ProtocolSocketEventTests {
    static let wall = 1_763_745_123.456

    private func text(_ event: SocketEvent, wall: Double = wall) -> String {
        String(decoding: event.jsonLine(wall: wall), as: UTF8.self)
    }

    private func replayText(_ event: PipelineEvent) -> String {
        var json = JSONLineWriter()
        event.write(to: &json)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    static let pipelineEvents: [PipelineEvent] = [
        .state(TurnSnapshot(phase: .hearing, turn: 1, muted: false), time: 1.0),
        .state(TurnSnapshot(phase: .listening, turn: 3, muted: false, error: .transcriptTimedOut(turn: 3)), time: 9.5),
        .speechStarted(turn: 3, audioStart: 41.22, time: 41.52),
        .speechEnded(turn: 3, reason: .silence, time: 43.07),
        .level(.mic, .init(time: 1.2, level: 0.476, rmsDBFS: -29.5, bands: .init(low: 0.365, lowMid: 0.478, highMid: 0.514, high: 0.323))),
        .error(code: "reply_timeout", message: "Sorry, no reply came back in time.", time: 17.71),
    ]

    @Test func speechEventAsDocumented() {
        #expect(
            text(.pipeline(.speechStarted(turn: 3, audioStart: 41.22, time: 41.52)))
                == #"{"event":"speech","phase":"start","turn":3,"audio_start":41.22,"wall":1763745123.456000,"t":41.52}"#
                + "\n"
        )
    }

    @Test(arguments: pipelineEvents)
    func socketFormIsTheReplayFormWithWallBeforeT(_ event: PipelineEvent) {
        // Each of these lines has `,"t":` once, right before its last value.
        let expected = replayText(event).replacing(#","t":"#, with: #","wall":1763745123.456000,"t":"#)
        #expect(text(.pipeline(event)) == expected)
    }

    @Test func wallHasMicrosecondPrecision() {
        let line = text(.pipeline(.speechEnded(turn: 1, reason: .silence, time: 2.11)), wall: 1_700_000_000.123_456)
        #expect(line.contains(#""wall":1700000000.123456,"t":2.11}"#))
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

    @Test func soundServerErrorCarriesRetryIn() {
        let lost = SoundServerError(
            code: "sound_server_lost",
            message: "The sound server went away (Connection terminated); retrying in 0.5 s.",
            retryIn: 0.5,
            time: 12
        )
        #expect(
            text(.soundServerError(lost))
                == #"{"event":"error","code":"sound_server_lost","message":"The sound server went away (Connection terminated); retrying in 0.5 s.","retry_in":0.5,"wall":1763745123.456000,"t":12.00}"#
                + "\n"
        )
        for (retryIn, written) in [(2.0, "2.0"), (0.25, "0.25"), (0.125, "0.125"), (1.0 / 3.0, "0.333")] {
            var error = lost
            error.retryIn = retryIn
            #expect(text(.soundServerError(error)).contains(#""retry_in":\#(written),"#))
        }
        var noRetry = lost
        noRetry.retryIn = nil
        #expect(!text(.soundServerError(noRetry)).contains("retry_in"))
    }

    @Test func everyEventHasItsTopic() {
        let topics = Self.pipelineEvents.map { SocketEvent.pipeline($0).topic }
        #expect(topics == [.state, .state, .speech, .speech, .level, .error])
        #expect(SocketEvent.device(DeviceEvent(change: .sink, source: nil, sink: "x", server: nil, time: 0)).topic == .device)
        #expect(SocketEvent.soundServerError(SoundServerError(code: "c", message: "m", retryIn: nil, time: 0)).topic == .error)
        #expect(SocketEvent.pipeline(Self.pipelineEvents[4]).deliveryClass == .level(.mic, time: 1.2))
        #expect(SocketEvent.pipeline(Self.pipelineEvents[0]).deliveryClass == .essential(.state))
    }
}
