import EarshotBase
import EarshotClient
import Foundation
import Testing

/// How `status`, the turn commands and `devices` word the daemon's answers.
@Suite struct ClientSummaryTests {
    static let utc = TimeZone(identifier: "UTC")!

    static let status = JSONValue.parsed("""
        {"id":1,"ok":true,"state":{"state":"listening","turn":3,"muted":false,"controls":["dismiss","mute"],"error":"reply_timeout"},\
        "audio":{"connected":true,"server":"PulseAudio 16.1","source":"alsa_input.usb","sink":"alsa_output.pci","audio_time":3725.31},\
        "backends":{"vad":"spectral","transcription":null,"speech":null},"uptime":3725.9,\
        "counters":{"frames":372531,"holes":0,"overflows":1,"clients":2,"dropped_levels":0,"reconnects":1},\
        "errors":[{"code":"reply_timeout","message":"Sorry, no reply came back in time.","wall":1763745123.456},\
        {"code":"sound_server_lost","message":"The sound server went away; retrying in 0.5 s.","wall":1763745200.0}]}
        """)

    @Test func statusIsOneLabelledLinePerConcern() {
        #expect(StatusSummary.lines(Self.status, timeZone: Self.utc) == [
            "state     listening · turn 3 · microphone on · controls: dismiss, mute · after error reply_timeout",
            "audio     connected to PulseAudio 16.1 · source alsa_input.usb · sink alsa_output.pci · audio time 3725.31 s",
            "backends  speech none · transcription none · vad spectral",
            "uptime    1 h 02 min 05 s",
            "counters  frames 372531 · holes 0 · overflows 1 · clients 2 · dropped levels 0 · reconnects 1",
            "errors    17:12:03  Sorry, no reply came back in time. (reply_timeout)",
            "          17:13:20  The sound server went away; retrying in 0.5 s. (sound_server_lost)",
        ])
    }

    @Test func statusLeavesOutWhatTheDaemonDidNotSend() {
        let sparse: JSONValue = ["id": 1, "ok": true, "audio": ["connected": false], "errors": []]
        #expect(StatusSummary.lines(sparse, timeZone: Self.utc) == [
            "audio     not connected to the sound server",
            "errors    none",
        ])
    }

    @Test func aDaemonOfAnotherProtocolVersionIsSaidFirst() {
        let newer: JSONValue = ["protocol": 2, "uptime": 5]
        #expect(StatusSummary.lines(newer, timeZone: Self.utc) == [
            "protocol  the daemon speaks protocol 2; this earshot knows 1: what follows may be incomplete "
                + "(use the earshot that came with the daemon)",
            "uptime    5 s",
        ])
        #expect(StatusSummary.lines(["protocol": 1, "uptime": 5], timeZone: Self.utc) == ["uptime    5 s"])
    }

    @Test func aStateIsOneLine() {
        let muted: JSONValue = ["state": "speaking", "turn": 2, "muted": true, "controls": ["stop", "dismiss", "unmute"]]
        #expect(StateSummary.line(muted) == "speaking · turn 2 · microphone muted · controls: stop, dismiss, unmute")
        #expect(StateSummary.line(["state": "idle", "turn": 0, "muted": false, "controls": []])
            == "idle · turn 0 · microphone on · no controls")
    }

    @Test func devicesMarkTheDefaultAndTheOnesInUse() {
        let devices: JSONValue = [
            "sources": [
                ["name": "alsa_input.pci", "description": "Built-in Audio", "default": true],
                ["name": "bluez_input.headset", "description": "Headset", "default": false],
                ["name": "alsa_output.pci.monitor", "description": "Monitor of Built-in Audio", "default": false, "monitor": true],
            ],
            "sinks": [["name": "alsa_output.pci", "description": "Built-in Audio", "default": true]],
            "source": "bluez_input.headset",
            "sink": "alsa_output.pci",
        ]
        #expect(DeviceListing.lines(devices) == [
            "Sources",
            "  alsa_input.pci           Built-in Audio             [default]",
            "  bluez_input.headset      Headset                    [in use]",
            "  alsa_output.pci.monitor  Monitor of Built-in Audio  [monitor]",
            "Sinks",
            "  alsa_output.pci  Built-in Audio  [default, in use]",
        ])
    }

    @Test func noDevicesSaysSo() {
        #expect(DeviceListing.lines(["sources": [], "sinks": []]) == ["Sources", "  (none)", "Sinks", "  (none)"])
    }

    @Test func spansReadAsWords() {
        #expect(ReadableText.span(seconds: 42.7) == "42 s")
        #expect(ReadableText.span(seconds: 187) == "3 min 07 s")
        #expect(ReadableText.span(seconds: 3725) == "1 h 02 min 05 s")
        #expect(ReadableText.span(seconds: 2 * 86_400 + 3 * 3600 + 4 * 60) == "2 d 3 h 04 min")
        #expect(ReadableText.span(seconds: -.infinity) == "0 s")
    }
}
