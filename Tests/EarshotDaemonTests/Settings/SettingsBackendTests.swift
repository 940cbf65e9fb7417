import EarshotDaemon
import EarshotEngines
import Testing

/// The settings check a backend with the parser the daemon uses (`BackendChoice`), and word each
/// kind of problem for the configuration file.
@Suite struct SettingsBackendTests {
    static let accepted = [
        "embedded", "EMBEDDED", "none", "off", "tcp://127.0.0.1:10300", "tcp://[::1]:10300", "tcp://host:10300/",
        "unix:///run/wyoming.sock", "openai+http://127.0.0.1:8000/v1", "openai+https://api.openai.com/v1",
    ]

    @Test(arguments: accepted)
    func aBackendIsAccepted(_ name: String) throws {
        #expect(throws: Never.self) { try SettingsValueKind.backend(.speechToText).check(.string(name)).get() }
    }

    @Test func anEngineNamesItsOwnRoleOnly() {
        #expect(problem("pocketsphinx", .speechToText) == nil)
        #expect(problem("flite", .textToSpeech) == nil)
        #expect(problem("espeak-ng", .textToSpeech) == nil)
        #expect(problem("flite", .speechToText)
            == "expected embedded, none, tcp://HOST:PORT, unix:///PATH or openai+http://HOST:PORT/v1, got \"flite\"")
    }

    @Test(arguments: [
        ("tcp://127.0.0.1", "it has no port"), ("tcp://:10300", "it has no host"), ("tcp://host:0", "the port must be a number from 1 to 65535"),
        ("tcp://[::1", "the IPv6 host has no closing ]"), ("unix://", "it names no socket path"),
        ("http://host:10300", "only tcp:// and unix:// addresses are supported"),
    ])
    func aBadWyomingAddressSaysWhy(_ name: String, _ reason: String) {
        #expect(problem(name, .speechToText)
            == "expected a Wyoming server address (tcp://HOST:PORT or unix:///PATH), got \"\(name)\": \(reason)")
    }

    @Test func aBadOpenAIAddressSaysWhy() throws {
        #expect(try BackendChoice(parsing: "openai+http://127.0.0.1:8000/v1", role: .speechToText).description
            == "openai+http://127.0.0.1:8000/v1")
        #expect(problem("openai+http://host:0/v1", .textToSpeech)
            == "expected an OpenAI-compatible server address (openai+http://HOST:PORT/v1), got \"openai+http://host:0/v1\": the port must be a number from 1 to 65535")
    }

    @Test func aWordThatIsNoBackendSaysWhatIsExpected() {
        #expect(problem("whisper", .speechToText)
            == "expected embedded, none, tcp://HOST:PORT, unix:///PATH or openai+http://HOST:PORT/v1, got \"whisper\"")
    }

    private func problem(_ name: String, _ role: BackendChoice.Role) -> String? {
        guard case .failure(let mismatch) = SettingsValueKind.backend(role).check(.string(name)) else { return nil }
        return mismatch.message
    }
}
