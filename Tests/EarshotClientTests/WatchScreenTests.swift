import EarshotBase
import EarshotClient
import Foundation
import Testing

/// `earshot watch`'s screen, drawn from models without a terminal.
@Suite struct WatchScreenTests {
    static let screen = WatchScreen(timeZone: TimeZone(identifier: "UTC")!)

    static func model(_ configure: (inout WatchModel) -> Void = { _ in }) -> WatchModel {
        var model = WatchModel(socketPath: "/run/user/1000/earshot/earshot.sock")
        model.connection = .connected
        model.state = "listening"
        model.controls = ["dismiss", "mute"]
        configure(&model)
        return model
    }

    static func line(_ lines: [String], labelled label: String) -> String? {
        lines.first { $0.hasPrefix(label) }
    }

    static func filledCells(_ line: String) -> Int {
        line.filter { $0 == "█" }.count
    }

    @Test func theStateAndItsControlsAreShownWithTheirKeys() throws {
        let lines = Self.screen.render(Self.model { $0.state = "hearing"; $0.turn = 3; $0.controls = ["cancel", "dismiss", "mute"] }, width: 100)
        #expect(lines[0] == "Earshot · connected to /run/user/1000/earshot/earshot.sock")
        #expect(Self.line(lines, labelled: "State") == "State     HEARING · turn 3 · microphone on")
        #expect(Self.line(lines, labelled: "Controls") == "Controls  [c] cancel  [d] dismiss  [m] mute")
        #expect(lines.last == "q or Ctrl-C quits")
    }

    @Test func stateChangesRedrawTheStateLine() throws {
        var model = Self.model()
        let before = Self.screen.render(model, width: 80)
        model.apply(DaemonEvent(
            line: "",
            body: ["event": "state", "state": "speaking", "turn": 2, "muted": true, "controls": ["stop", "dismiss", "unmute"], "t": .number(4, decimals: 2)]
        ))
        let after = Self.screen.render(model, width: 80)
        #expect(Self.line(before, labelled: "State") == "State     LISTENING · turn 0 · microphone on")
        #expect(Self.line(after, labelled: "State") == "State     SPEAKING · turn 2 · microphone muted")
        #expect(Self.line(after, labelled: "Controls") == "Controls  [s] stop  [d] dismiss  [m] unmute")
        #expect(Self.line(after, labelled: "Mic")?.hasSuffix("muted") == true)
    }

    @Test func idleOffersTheStartKey() {
        let lines = Self.screen.render(Self.model { $0.state = "idle"; $0.controls = [] }, width: 80)
        #expect(Self.line(lines, labelled: "Controls") == "Controls  [v] start voice mode")
        #expect(Self.line(lines, labelled: "Mic")?.hasSuffix("voice mode off") == true)
    }

    @Test(arguments: [0.0, 0.1, 0.25, 0.5, 0.9, 1.0])
    func theLevelBarIsFilledInProportion(level: Double) throws {
        let width = 80
        let barWidth = WatchScreen.barWidth(forTerminalWidth: width)
        let lines = Self.screen.render(Self.model { $0.mic = WatchModel.Meter(level: level, rmsDBFS: -30, bands: [level, 0, 1, 0.5]) }, width: width)
        let mic = try #require(Self.line(lines, labelled: "Mic"))
        #expect(Self.filledCells(mic) == Int((level * Double(barWidth)).rounded()))
        #expect(mic.hasSuffix(String(format: "%.2f  -30.0 dBFS", level)))
        let bands = lines.filter { $0.hasPrefix(" <300 Hz") || $0.hasPrefix(" 0.3-1 k") || $0.hasPrefix(" 1-3 kHz") || $0.hasPrefix(" >3 kHz") }
        #expect(bands.map(Self.filledCells) == [Int((level * Double(barWidth)).rounded()), 0, barWidth, barWidth / 2])
    }

    @Test func theBarGrowsWithTheTerminalUpToItsLimit() {
        #expect(WatchScreen.barWidth(forTerminalWidth: 60) == 32)
        #expect(WatchScreen.barWidth(forTerminalWidth: 80) == 52)
        #expect(WatchScreen.barWidth(forTerminalWidth: 300) == 60)
        #expect(WatchScreen.barWidth(forTerminalWidth: 10) == 0)
        #expect(WatchScreen.bar(level: 0.5, width: 10) == "█████░░░░░")
        #expect(WatchScreen.bar(level: 7, width: 4) == "████")
        #expect(WatchScreen.bar(level: -.nan, width: 4) == "░░░░")
    }

    @Test func theSpeakerMeterAppearsOnlyWhileItSpeaks() {
        let quiet = Self.screen.render(Self.model(), width: 80)
        #expect(Self.line(quiet, labelled: "Speaker") == nil)
        let speaking = Self.screen.render(Self.model { $0.speaker = WatchModel.Meter(level: 1, bands: [1, 1, 1, 1]) }, width: 80)
        #expect(Self.filledCells(Self.line(speaking, labelled: "Speaker") ?? "") == WatchScreen.barWidth(forTerminalWidth: 80))
        #expect(speaking.count == quiet.count + 5)
    }

    @Test func theUtteranceShowsWhereItMayBeOverAndThatItWentOn() {
        let eager = Self.screen.render(Self.model { $0.utterance = WatchModel.Utterance(turn: 1, start: 0.66, mayHaveEnded: 2.31) }, width: 100)
        #expect(Self.line(eager, labelled: "Utterance") == "Utterance turn 1 · start 0.66 s · may be over at 2.31 s")
        let resumed = Self.screen.render(
            Self.model { $0.utterance = WatchModel.Utterance(turn: 2, start: 0.66, end: 4.36, resumptions: 1) }, width: 100
        )
        #expect(
            Self.line(resumed, labelled: "Utterance")
                == "Utterance turn 2 · start 0.66 s · end 4.36 s · lasted 3.70 s · went on after 1 pause"
        )
    }

    @Test func theUtteranceShowsItsStartEndAndLength() {
        let finished = Self.screen.render(Self.model { $0.utterance = WatchModel.Utterance(turn: 3, start: 41.52, end: 43.1) }, width: 100)
        #expect(Self.line(finished, labelled: "Utterance") == "Utterance turn 3 · start 41.52 s · end 43.10 s · lasted 1.58 s")
        let ongoing = Self.screen.render(Self.model { $0.utterance = WatchModel.Utterance(turn: 4, start: 50) }, width: 100)
        #expect(Self.line(ongoing, labelled: "Utterance") == "Utterance turn 4 · start 50.00 s · still speaking")
        let none = Self.screen.render(Self.model(), width: 100)
        #expect(Self.line(none, labelled: "Utterance") == "Utterance none yet")
    }

    @Test func errorsAreShownInWordsWithTheirTime() {
        let lines = Self.screen.render(Self.model {
            $0.errors = [
                WatchModel.ErrorNote(code: "reply_timeout", message: "Sorry, no reply came back in time.", wall: 1_763_745_123.456),
                WatchModel.ErrorNote(code: "sound_server_lost", message: "The sound server went away; retrying in 0.5 s."),
            ]
        }, width: 120)
        let index = lines.firstIndex { $0.hasPrefix("Errors") }!
        #expect(lines[index] == "Errors    17:12:03  Sorry, no reply came back in time. (reply_timeout)")
        #expect(lines[index + 1] == "          The sound server went away; retrying in 0.5 s. (sound_server_lost)")
        #expect(Self.line(Self.screen.render(Self.model(), width: 80), labelled: "Errors") == "Errors    none")
    }

    @Test func aKeyboardCommandsRefusalIsShown() {
        let lines = Self.screen.render(Self.model { $0.notice = "stop: Nothing is playing." }, width: 80)
        #expect(Self.line(lines, labelled: "Note") == "Note      stop: Nothing is playing.")
    }

    @Test func theAudioRouteAndUptimeAreShown() {
        let lines = Self.screen.render(Self.model {
            $0.audio = WatchModel.AudioRoute(connected: true, server: "PulseAudio 16.1", source: "mic", sink: "speakers")
            $0.uptime = 3725
        }, width: 120)
        #expect(lines[0] == "Earshot · connected to /run/user/1000/earshot/earshot.sock · up 1 h 02 min 05 s")
        #expect(Self.line(lines, labelled: "Audio") == "Audio     connected to PulseAudio 16.1 · source mic · sink speakers")
    }

    @Test func aLostDaemonIsSaidAtTheTop() {
        var model = Self.model { $0.mic = WatchModel.Meter(level: 0.7) }
        model.connectionLost("it closed the connection (it stopped or restarted).")
        let lines = Self.screen.render(model, width: 100)
        #expect(lines[0] == "Earshot · the daemon went away: it closed the connection (it stopped or restarted).")
        #expect(Self.line(lines, labelled: "State") == "State     LISTENING · turn 0 · microphone on · last known")
        #expect(Self.line(lines, labelled: "Controls") == "Controls  none: nothing to control")
        #expect(Self.filledCells(Self.line(lines, labelled: "Mic") ?? "") == 0)
        #expect(!lines.contains("q or Ctrl-C quits"))
    }

    @Test(arguments: [0, 1, 5, 9, 10, 20, 27, 28, 29, 40])
    func narrowTerminalsGetClippedLinesAndNoCrash(width: Int) {
        let model = Self.model {
            $0.state = "speaking"
            $0.controls = ["stop", "dismiss", "mute"]
            $0.mic = WatchModel.Meter(level: 0.6, rmsDBFS: -20, bands: [0.1, 0.2, 0.3, 0.4])
            $0.speaker = WatchModel.Meter(level: 0.9, rmsDBFS: -10, bands: [1, 1, 1, 1])
            $0.utterance = WatchModel.Utterance(turn: 1, start: 1, end: 2)
            $0.errors = [WatchModel.ErrorNote(code: "reply_timeout", message: "Sorry.", wall: 0)]
        }
        let lines = Self.screen.render(model, width: width)
        #expect(lines.count == Self.screen.render(model, width: 200).count)
        #expect(lines.allSatisfy { $0.count <= width })
    }

    @Test func theConnectingScreenNamesTheSocket() {
        let lines = Self.screen.render(WatchModel(socketPath: "/tmp/e.sock"), width: 80)
        #expect(lines[0] == "Earshot · connecting to /tmp/e.sock…")
        #expect(Self.line(lines, labelled: "State") == "State     unknown yet")
    }
}
