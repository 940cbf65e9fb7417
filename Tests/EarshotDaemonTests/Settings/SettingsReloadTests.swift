import EarshotDaemon
import Testing

@Suite struct SettingsReloadTests {
    @Test func liveKeysAreAppliedAndTheOthersWaitForARestart() {
        var newFile = Settings()
        newFile.listening.endOfTurnSilenceMilliseconds = 900
        newFile.speech.voice = "cove"
        newFile.daemon.socket = "/tmp/other.sock"
        newFile.transcription.backend = "none"
        let reload = SettingsReload(inForce: Settings(), previousFile: Settings(), newFile: newFile, overrides: SettingsOverrides())
        #expect(reload.applied == [.endSilence, .voice])
        #expect(reload.restartNeeded == [.transcriptionBackend, .socket])
        #expect(reload.overridden.isEmpty)
        var expected = Settings()
        expected.listening.endOfTurnSilenceMilliseconds = 900
        expected.speech.voice = "cove"
        #expect(reload.inForce == expected)
    }

    @Test func theCommandLineStillWins() {
        var overrides = SettingsOverrides()
        overrides[.endSilence] = .integer(400)
        let inForce = Settings().applying(overrides)
        var newFile = Settings()
        newFile.listening.endOfTurnSilenceMilliseconds = 900
        newFile.listening.vadThreshold = 0.7
        let reload = SettingsReload(inForce: inForce, previousFile: Settings(), newFile: newFile, overrides: overrides)
        #expect(reload.overridden == [.endSilence])
        #expect(reload.applied == [.vadThreshold])
        #expect(reload.inForce.listening.endOfTurnSilenceMilliseconds == 400)
        #expect(reload.inForce.listening.vadThreshold == 0.7)
    }

    @Test func removingAKeyReturnsItToItsDefault() {
        var previous = Settings()
        previous.replies.responder = "cat"
        let reload = SettingsReload(inForce: previous, previousFile: previous, newFile: Settings(), overrides: SettingsOverrides())
        #expect(reload.applied == [.responder])
        #expect(reload.inForce.replies.responder == nil)
    }

    @Test func aRestartKeyStillChangedIsSaidAgainAtTheNextReload() {
        var newFile = Settings()
        newFile.audio.echoCancellation = true
        let first = SettingsReload(inForce: Settings(), previousFile: Settings(), newFile: newFile, overrides: SettingsOverrides())
        let second = SettingsReload(inForce: first.inForce, previousFile: newFile, newFile: newFile, overrides: SettingsOverrides())
        #expect(first.restartNeeded == [.echoCancellation])
        #expect(second.restartNeeded == [.echoCancellation])
        #expect(second.applied.isEmpty)
    }

    @Test func theDefaultPathFollowsXDG() {
        #expect(SettingsLocation.defaultPath(environment: ["XDG_CONFIG_HOME": "/x/config", "HOME": "/home/me"]) == "/x/config/earshot/config.toml")
        #expect(SettingsLocation.defaultPath(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/me"]) == "/home/me/.config/earshot/config.toml")
        #expect(SettingsLocation.defaultPath(environment: ["HOME": "/home/me"]) == "/home/me/.config/earshot/config.toml")
        #expect(SettingsLocation.defaultPath(environment: [:]) == nil)
    }
}
