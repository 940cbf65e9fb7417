import EarshotBase
import EarshotClient
import Testing

/// How `earshot status` words debug recording: off, off with an earlier run's turns, on.
@Suite struct ClientRecordingSummaryTests {
    static func line(_ recording: String) -> [String] {
        StatusSummary.lines(.parsed(#"{"id":1,"ok":true,"recording":\#(recording)}"#))
    }

    @Test func recordingIsOneLineSayingWhetherItIsOnWhereAndHowManyTurnsAreKept() {
        #expect(Self.line(#"{"debug_turns":0,"directory":"/home/me/.local/state/earshot/recordings","kept":0}"#) == [
            "recording off (no audio is written to disk)",
        ])
        #expect(Self.line(#"{"debug_turns":0,"directory":"/home/me/.local/state/earshot/recordings","kept":3}"#) == [
            "recording off · 3 turns recorded earlier in /home/me/.local/state/earshot/recordings (earshot forget deletes them)",
        ])
        #expect(Self.line(#"{"debug_turns":5,"directory":"/home/me/.local/state/earshot/recordings","kept":1}"#) == [
            "recording the last 5 turns, in /home/me/.local/state/earshot/recordings · 1 kept",
        ])
    }
}
