import EarshotBase
import EarshotClient
import Testing

/// How `earshot status` words the settings in force and the configuration file.
@Suite struct ClientSettingsSummaryTests {
    @Test func theListeningSettingsAndTheFileAreOneLineEach() {
        let status = JSONValue.parsed("""
            {"id":1,"ok":true,"errors":[],"config_file":"/home/me/.config/earshot/config.toml",\
            "settings":{"audio":{"source":null},"listening":{"vad_threshold":0.6,"prefix_padding_ms":300,"min_speech_ms":150,"end_silence_ms":900,"eagerness":"high"}}}
            """)
        #expect(StatusSummary.lines(status) == [
            "listening vad threshold 0.6 · prefix padding 300 ms · min speech 150 ms · end silence 900 ms · eagerness high",
            "config    /home/me/.config/earshot/config.toml",
            "errors    none",
        ])
    }
}
