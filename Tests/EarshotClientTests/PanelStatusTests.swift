import EarshotClient
import EarshotProtocol
import Testing

/// `earshot status --format waybar|plain`: the line a status bar reads for each state.
@Suite struct PanelStatusTests {
    static func state(_ phase: VoiceState.Phase, muted: Bool = false, turn: Int = 2, error: String? = nil) -> PanelStatus {
        .voice(VoiceState(phase: phase, turn: turn, muted: muted, controls: [], error: error))
    }

    @Test func everyStateHasItsOwnClass() {
        let looks = [
            Self.state(.idle), Self.state(.listening), Self.state(.listening, muted: true), Self.state(.hearing),
            Self.state(.thinking), Self.state(.speaking), PanelStatus.notRunning(reason: "nothing listens on its socket"),
        ].map(\.look)
        #expect(looks == ["off", "listening", "muted", "hearing", "thinking", "speaking", "not-running"])
    }

    @Test func waybarGetsTextAltTooltipAndClass() {
        #expect(Self.state(.listening).line(.waybar)
            == #"{"text":"listening","alt":"listening","tooltip":"Earshot is listening","class":"listening"}"#)
        #expect(Self.state(.thinking, muted: true, turn: 3).line(.waybar)
            == #"{"text":"thinking","alt":"thinking","tooltip":"Earshot is thinking about turn 3 · microphone muted","class":"thinking"}"#)
        #expect(Self.state(.idle).line(.waybar)
            == #"{"text":"off","alt":"off","tooltip":"Earshot: voice mode is off","class":"off"}"#)
    }

    @Test func theDaemonNotRunningSaysWhy() {
        let line = PanelStatus.notRunning(reason: "it closed the connection (it stopped or restarted)").line(.waybar)
        #expect(line == #"{"text":"not running","alt":"not-running","tooltip":"Earshot is not running: it closed the connection (it stopped or restarted)","class":"not-running"}"#)
        #expect(PanelStatus.notRunning(reason: "gone").line(.plain) == "not running")
    }

    @Test func aFailedTurnShowsInTheTooltip() {
        #expect(Self.state(.listening, error: "reply_timeout").tooltip == "Earshot is listening · last turn: reply timeout")
    }

    @Test func markupInAReasonIsEscapedForWaybar() {
        let line = PanelStatus.notRunning(reason: "socket <path> & more").line(.waybar)
        #expect(line.contains("socket &lt;path&gt; &amp; more"))
    }

    @Test func plainIsOneWordALine() {
        let lines = [Self.state(.idle), Self.state(.listening, muted: true), Self.state(.speaking)].map { $0.line(.plain) }
        #expect(lines == ["off", "muted", "speaking"])
    }
}
