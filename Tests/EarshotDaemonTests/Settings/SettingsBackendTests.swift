import EarshotEngines
import EarshotDaemon
import Testing

/// The settings check backend names by the rules `BackendChoice` parses them with.
@Suite struct SettingsBackendTests {
    static let names = [
        "embedded", "EMBEDDED", "none", "off", "pocketsphinx", "flite", "espeak-ng", "whisper", "",
        "tcp://127.0.0.1:10300", "tcp://[::1]:10300", "tcp://host:10300/", "tcp://127.0.0.1", "tcp://:10300",
        "tcp://host:0", "tcp://host:70000", "tcp://[::1", "tcp://[::1]", "unix:///run/wyoming.sock", "unix://",
        "http://host:10300", "openai+http://127.0.0.1:8000/v1", "openai+https://api.openai.com/v1", "openai+http://host",
        "openai+ftp://host/v1", "openai+http://:8000/v1", "openai+http://host:0/v1", "openai+http://user:pw@host/v1",
    ]

    @Test(arguments: names)
    func speechToTextAgreesWithTheDaemon(_ name: String) {
        agree(name, kind: .backend(.speechToText), role: .speechToText)
    }

    @Test(arguments: names)
    func textToSpeechAgreesWithTheDaemon(_ name: String) {
        agree(name, kind: .backend(.textToSpeech), role: .textToSpeech)
    }

    @Test func anOpenAIAddressIsParsedAsOneAndItsProblemWorded() throws {
        #expect(try BackendChoice(parsing: "openai+http://127.0.0.1:8000/v1", role: .speechToText).description
            == "openai+http://127.0.0.1:8000/v1")
        guard case .failure(let mismatch) = SettingsValueKind.backend(.textToSpeech).check(.string("openai+http://host:0/v1")) else {
            Issue.record("a port of 0 was accepted")
            return
        }
        #expect(mismatch.message == "expected an OpenAI-compatible server address (openai+http://HOST:PORT/v1), got \"openai+http://host:0/v1\": the port must be a number from 1 to 65535")
    }

    private func agree(_ name: String, kind: SettingsValueKind, role: BackendChoice.Role) {
        let daemonAccepts = (try? BackendChoice(parsing: name, role: role)) != nil
        let settingsAccept = (try? kind.check(.string(name)).get()) != nil
        #expect(daemonAccepts == settingsAccept, "\(name)")
    }
}
