import EarshotBackends
import EarshotSettings
import Testing

/// The settings check backend names by the rules `BackendChoice` parses them with.
@Suite struct SettingsBackendTests {
    static let names = [
        "embedded", "EMBEDDED", "none", "off", "pocketsphinx", "flite", "espeak-ng", "whisper", "",
        "tcp://127.0.0.1:10300", "tcp://[::1]:10300", "tcp://host:10300/", "tcp://127.0.0.1", "tcp://:10300",
        "tcp://host:0", "tcp://host:70000", "tcp://[::1", "tcp://[::1]", "unix:///run/wyoming.sock", "unix://",
        "http://host:10300",
    ]

    @Test(arguments: names)
    func speechToTextAgreesWithTheDaemon(_ name: String) {
        agree(name, kind: .backend(.speechToText), role: .speechToText)
    }

    @Test(arguments: names)
    func textToSpeechAgreesWithTheDaemon(_ name: String) {
        agree(name, kind: .backend(.textToSpeech), role: .textToSpeech)
    }

    private func agree(_ name: String, kind: SettingsValueKind, role: BackendChoice.Role) {
        let daemonAccepts = (try? BackendChoice(parsing: name, role: role)) != nil
        let settingsAccept = (try? kind.check(.string(name)).get()) != nil
        #expect(daemonAccepts == settingsAccept, "\(name)")
    }
}
