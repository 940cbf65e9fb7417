import EarshotBase
import EarshotProtocol
import Testing

/// `status`'s answer in its one encoding, and read back as a client reads it.
@Suite struct ProtocolStatusTests {
    static let status = DaemonStatus(
        protocolVersion: DaemonStatus.currentProtocolVersion,
        state: VoiceState(phase: .listening, turn: 3, muted: false, controls: [.dismiss, .mute]),
        audio: DaemonStatus.Audio(
            connected: true, server: "PulseAudio 16.1", source: .named("alsa_input.usb"), sink: .unknown, audioTime: 3725.31,
            echoCancellation: "off"
        ),
        backends: [DaemonStatus.Backend(role: "vad", name: "spectral"), DaemonStatus.Backend(role: "speech", name: "flite")],
        uptime: 3725.9,
        counters: [DaemonStatus.Counter(name: "frames", value: 372_531), DaemonStatus.Counter(name: "clients", value: 2)],
        errors: [DaemonStatus.ReportedError(code: "reply_timeout", message: "Sorry.", wall: 1_763_745_123.456)],
        configFile: "/home/me/.config/earshot/config.toml",
        settings: DaemonStatus.Settings(sections: [
            DaemonStatus.Settings.Section(name: "listening", settings: [
                DaemonStatus.Settings.Setting(key: "vad_threshold", value: .number(JSONNumber(0.5, decimals: 1))),
                DaemonStatus.Settings.Setting(key: "end_silence_ms", value: .number(JSONNumber(600))),
                DaemonStatus.Settings.Setting(key: "eagerness", value: .text("medium")),
            ]),
            DaemonStatus.Settings.Section(name: "audio", settings: [
                DaemonStatus.Settings.Setting(key: "source", value: .unset),
                DaemonStatus.Settings.Setting(key: "cues", value: .flag(true)),
            ]),
        ]),
        recording: DaemonStatus.Recording(debugTurns: 0, directory: "/tmp/recordings", kept: 2)
    )

    @Test func theAnswerIsWrittenInTheDocumentedOrder() {
        let line = String(decoding: Response(id: 1, result: .success(Self.status.fields)).jsonLine(), as: UTF8.self)
        #expect(line == """
            {"id":1,"ok":true,"protocol":1,"state":{"state":"listening","turn":3,"muted":false,"controls":["dismiss","mute"]},\
            "audio":{"connected":true,"server":"PulseAudio 16.1","source":"alsa_input.usb","sink":null,"audio_time":3725.31,"echo_cancellation":"off"},\
            "backends":{"vad":"spectral","speech":"flite"},"uptime":3725.9,"counters":{"frames":372531,"clients":2},\
            "errors":[{"code":"reply_timeout","message":"Sorry.","wall":1763745123.456}],\
            "config_file":"/home/me/.config/earshot/config.toml",\
            "settings":{"listening":{"vad_threshold":0.5,"end_silence_ms":600,"eagerness":"medium"},"audio":{"source":null,"cues":true}},\
            "recording":{"debug_turns":0,"directory":"/tmp/recordings","kept":2}}

            """)
    }

    @Test func theAnswerReadsBackAsItWasWritten() throws {
        let response = try Response(jsonLine: Response(id: 1, result: .success(Self.status.fields)).jsonLine())
        guard case .success(let fields) = response.result else {
            Issue.record("not a success")
            return
        }
        #expect(DaemonStatus(fields: fields) == Self.status)
    }

    @Test func aDaemonConfiguredInCodeSendsNullForItsFileAndSettings() {
        let fields = DaemonStatus(uptime: 1).fields
        #expect(JSONValue.object(fields).jsonText == #"{"uptime":1.0,"config_file":null,"settings":null}"#)
        #expect(DaemonStatus(fields: fields) == DaemonStatus(uptime: 1))
    }

    @Test func partsMissingOrUnreadableAreLeftOut() {
        let read = DaemonStatus(fields: [
            "audio": ["connected": false], "state": ["state": "dozing"], "errors": [["code": "x"], ["code": "y", "message": "Y.", "wall": 2]],
        ])
        #expect(read == DaemonStatus(
            audio: DaemonStatus.Audio(connected: false),
            errors: [DaemonStatus.ReportedError(code: "y", message: "Y.", wall: 2)]
        ))
    }
}
