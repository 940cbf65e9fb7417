import EarshotBase
import EarshotClient
import Testing

/// `earshot watch`'s model, fed the daemon's events.
@Suite struct WatchModelTests {
    static func event(_ line: String) -> DaemonEvent {
        DaemonEvent(line: line, body: .parsed(line))
    }

    static func model(after lines: [String]) -> WatchModel {
        var model = WatchModel(socketPath: "/run/user/1000/earshot/earshot.sock")
        for line in lines { model.apply(event(line)) }
        return model
    }

    @Test func stateEventsSetStateTurnMuteAndControls() {
        let model = Self.model(after: [
            #"{"event":"state","state":"listening","turn":0,"muted":false,"controls":["dismiss","mute"],"wall":1.0,"t":0.00}"#,
            #"{"event":"state","state":"hearing","turn":1,"muted":true,"controls":["cancel","dismiss","unmute"],"wall":2.0,"t":1.00}"#,
        ])
        #expect(model.state == "hearing")
        #expect(model.turn == 1)
        #expect(model.muted)
        #expect(model.controls == ["cancel", "dismiss", "unmute"])
        #expect(model.stateError == nil)
        #expect(model.audioTime == 1.0)
    }

    @Test func aStateErrorLastsUntilTheNextState() {
        var model = Self.model(after: [
            #"{"event":"state","state":"listening","turn":1,"muted":false,"controls":["dismiss","mute"],"error":"reply_timeout","t":17.71}"#,
        ])
        #expect(model.stateError == "reply_timeout")
        model.apply(Self.event(#"{"event":"state","state":"hearing","turn":2,"muted":false,"controls":["cancel","dismiss","mute"],"t":19.0}"#))
        #expect(model.stateError == nil)
    }

    @Test func speechEventsGiveTheUtterancesTimes() {
        var model = Self.model(after: [#"{"event":"speech","phase":"start","turn":1,"audio_start":0.52,"t":0.82}"#])
        #expect(model.utterance == WatchModel.Utterance(turn: 1, start: 0.82, end: nil))
        #expect(model.utterance?.duration == nil)
        model.apply(Self.event(#"{"event":"speech","phase":"end","turn":1,"reason":"silence","t":2.11}"#))
        #expect(model.utterance == WatchModel.Utterance(turn: 1, start: 0.82, end: 2.11))
        #expect(abs((model.utterance?.duration ?? 0) - 1.29) < 1e-9)
        model.apply(Self.event(#"{"event":"speech","phase":"start","turn":2,"audio_start":4.0,"t":4.3}"#))
        #expect(model.utterance == WatchModel.Utterance(turn: 2, start: 4.3, end: nil))
    }

    @Test func anUtteranceThatWentOnAfterAnEagerEndEndsAsItsNextTurn() {
        var model = Self.model(after: [
            #"{"event":"speech","phase":"start","turn":1,"audio_start":0.36,"t":0.66}"#,
            #"{"event":"speech","phase":"eager_end","turn":1,"t":2.31}"#,
        ])
        #expect(model.utterance == WatchModel.Utterance(turn: 1, start: 0.66, mayHaveEnded: 2.31))
        model.apply(Self.event(#"{"event":"speech","phase":"resumed","turn":1,"t":3.44}"#))
        #expect(model.utterance == WatchModel.Utterance(turn: 1, start: 0.66, resumptions: 1))
        model.apply(Self.event(#"{"event":"speech","phase":"end","turn":2,"reason":"finished","t":4.36}"#))
        #expect(model.utterance == WatchModel.Utterance(turn: 2, start: 0.66, end: 4.36, resumptions: 1))
    }

    @Test func aTurnThatRejoinedTheOneBeforeCountsThePause() {
        var model = Self.model(after: [
            #"{"event":"speech","phase":"start","turn":1,"audio_start":0.36,"t":0.66}"#,
            #"{"event":"speech","phase":"end","turn":1,"reason":"finished","t":1.90}"#,
            #"{"event":"speech","phase":"start","turn":2,"audio_start":2.40,"t":2.70}"#,
        ])
        model.apply(Self.event(#"{"event":"speech","phase":"resumed","turn":1,"t":2.88}"#))
        #expect(model.utterance == WatchModel.Utterance(turn: 2, start: 2.70, resumptions: 1))
        // A resumed naming neither this turn nor the one before changes nothing.
        model.apply(Self.event(#"{"event":"speech","phase":"resumed","turn":7,"t":2.90}"#))
        #expect(model.utterance == WatchModel.Utterance(turn: 2, start: 2.70, resumptions: 1))
    }

    @Test func anEndWithoutItsStartKeepsTheEnd() {
        let model = Self.model(after: [#"{"event":"speech","phase":"end","turn":5,"reason":"silence","t":30.5}"#])
        #expect(model.utterance == WatchModel.Utterance(turn: 5, start: nil, end: 30.5))
    }

    @Test func levelsFillTheMicAndSpeakerMeters() {
        var model = Self.model(after: [
            #"{"event":"state","state":"speaking","turn":1,"muted":false,"controls":["stop","dismiss","mute"],"t":3.0}"#,
            #"{"event":"level","source":"mic","level":0.476,"rms_dbfs":-29.5,"bands":[0.365,0.478,0.514,0.323],"t":3.1}"#,
            #"{"event":"level","source":"speaker","level":0.8,"rms_dbfs":-12.0,"bands":[0.1,0.9,0.5,0.2],"t":3.1}"#,
        ])
        #expect(model.mic == WatchModel.Meter(level: 0.476, rmsDBFS: -29.5, bands: [0.365, 0.478, 0.514, 0.323]))
        #expect(model.speaker?.level == 0.8)
        model.apply(Self.event(#"{"event":"state","state":"listening","turn":1,"muted":false,"controls":["dismiss","mute"],"t":5.0}"#))
        #expect(model.speaker == nil)
        #expect(model.mic != nil)
        model.apply(Self.event(#"{"event":"state","state":"idle","turn":1,"muted":false,"controls":[],"t":6.0}"#))
        #expect(model.mic == nil)
    }

    @Test func errorsKeepTheLastFewOnceEach() {
        var lines: [String] = []
        for index in 0..<6 {
            lines.append(#"{"event":"error","code":"reply_timeout","message":"Sorry \#(index).","wall":\#(100 + index).0,"t":\#(index).0}"#)
        }
        lines.append(lines.last!)
        let model = Self.model(after: lines)
        #expect(model.errors.count == WatchModel.keptErrors)
        #expect(model.errors.map(\.message) == ["Sorry 2.", "Sorry 3.", "Sorry 4.", "Sorry 5."])
        #expect(model.errors.last == WatchModel.ErrorNote(code: "reply_timeout", message: "Sorry 5.", wall: 105))
    }

    @Test func deviceEventsFollowTheSoundServer() {
        var model = Self.model(after: [
            #"{"event":"device","change":"connected","source":"mic.usb","sink":"speakers","server":"PulseAudio 16.1","wall":1.0,"t":0.0}"#,
        ])
        #expect(model.audio == WatchModel.AudioRoute(connected: true, server: "PulseAudio 16.1", source: "mic.usb", sink: "speakers"))
        model.apply(Self.event(#"{"event":"device","change":"sink","sink":"headphones","wall":2.0,"t":1.0}"#))
        #expect(model.audio.sink == "headphones")
        model.apply(Self.event(#"{"event":"device","change":"disconnected","wall":3.0,"t":2.0}"#))
        #expect(model.audio.connected == false)
    }

    @Test func statusFillsInEverythingAndItsErrorsReplaceTheList() {
        var model = Self.model(after: [#"{"event":"error","code":"transcript_timeout","message":"Old.","wall":5.0,"t":1.0}"#])
        model.apply(status: .parsed("""
            {"id":1,"ok":true,"state":{"state":"thinking","turn":4,"muted":false,"controls":["cancel","dismiss","mute"]},\
            "audio":{"connected":true,"server":"PulseAudio","source":"in","sink":"out","audio_time":99.5},"uptime":120,\
            "errors":[{"code":"reply_timeout","message":"Sorry, no reply came back in time.","wall":50.0}]}
            """))
        #expect(model.connection == .connected)
        #expect(model.state == "thinking")
        #expect(model.turn == 4)
        #expect(model.audio == WatchModel.AudioRoute(connected: true, server: "PulseAudio", source: "in", sink: "out"))
        #expect(model.uptime == 120)
        #expect(model.audioTime == 99.5)
        #expect(model.errors == [WatchModel.ErrorNote(code: "reply_timeout", message: "Sorry, no reply came back in time.", wall: 50)])
    }

    @Test func statusNamesWhatAnswersAndTheScreenShowsIt() {
        var model = Self.model(after: [])
        #expect(!WatchScreen.render(model, width: 100).contains { $0.hasPrefix("Replies") })
        model.apply(status: .parsed("""
            {"id":1,"ok":true,"backends":{"vad":"spectral","replies":"assistant at http://127.0.0.1:11434/v1 (model llama3.2)"}}
            """))
        #expect(model.replies == "assistant at http://127.0.0.1:11434/v1 (model llama3.2)")
        #expect(WatchScreen.render(model, width: 100).contains("Replies   assistant at http://127.0.0.1:11434/v1 (model llama3.2)"))
    }

    @Test func losingTheDaemonStopsTheMeters() {
        var model = Self.model(after: [#"{"event":"level","source":"mic","level":0.5,"t":1.0}"#])
        model.connectionLost("it closed the connection")
        #expect(model.connection == .lost("it closed the connection"))
        #expect(model.mic == nil)
    }

    @Test func unknownEventsChangeNothingButTheTime() {
        let before = Self.model(after: [])
        var after = before
        after.apply(Self.event(#"{"event":"transcript","text":"hello","t":3.0}"#))
        after.audioTime = nil
        #expect(after == before)
    }
}
