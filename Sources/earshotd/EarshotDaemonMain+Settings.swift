import ArgumentParser
import EarshotDaemon
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension EarshotDaemonMain {
    /// The settings given as options: they override the configuration file, now and at every
    /// reload.
    var overrides: SettingsOverrides {
        var overrides = SettingsOverrides()
        overrides[.server] = server.map(SettingsValue.text)
        overrides[.source] = source.map(SettingsValue.text)
        overrides[.sink] = sink.map(SettingsValue.text)
        overrides[.echoCancellation] = echoCancel.map(SettingsValue.flag)
        overrides[.cues] = cues.map(SettingsValue.flag)
        overrides[.vadThreshold] = vadThreshold.map { .number(Double($0)) }
        overrides[.prefixPadding] = endpointing.prefixPaddingMs.map(SettingsValue.integer)
        overrides[.minimumSpeech] = endpointing.minSpeechMs.map(SettingsValue.integer)
        overrides[.endSilence] = endpointing.endSilenceMs.map(SettingsValue.integer)
        overrides[.finishedSilence] = endpointing.finishedSilenceMs.map(SettingsValue.integer)
        overrides[.maximumEndSilence] = endpointing.maxEndSilenceMs.map(SettingsValue.integer)
        overrides[.eagerness] = endpointing.eagerness.map(SettingsValue.text)
        overrides[.transcriptionBackend] = stt.map(SettingsValue.text)
        overrides[.language] = language.map(SettingsValue.text)
        overrides[.transcriptionModel] = sttModel.map(SettingsValue.text)
        overrides[.transcriptionKeyFile] = sttApiKeyFile.map(SettingsValue.text)
        overrides[.speechKeyFile] = ttsApiKeyFile.map(SettingsValue.text)
        overrides[.transcriptionUnloadAfter] = sttUnloadAfter.map(SettingsValue.number)
        overrides[.speechBackend] = tts.map(SettingsValue.text)
        overrides[.voice] = voice.map(SettingsValue.text)
        overrides[.voicesDirectory] = voicesDir.map(SettingsValue.text)
        overrides[.speechUnloadAfter] = ttsUnloadAfter.map(SettingsValue.number)
        overrides[.replyTimeout] = replyTimeout.map(SettingsValue.number)
        overrides[.responder] = responder.map(SettingsValue.text)
        overrides[.responderTimeout] = responderTimeout.map(SettingsValue.number)
        overrides[.assistantServer] = assistant.map(SettingsValue.text)
        overrides[.assistantModel] = assistantModel.map(SettingsValue.text)
        overrides[.assistantInstructions] = assistantInstructions.map(SettingsValue.text)
        overrides[.assistantInstructionsFile] = assistantInstructionsFile.map(SettingsValue.text)
        overrides[.assistantMaximumTurns] = assistantMaxTurns.map(SettingsValue.integer)
        overrides[.assistantKeyFile] = assistantApiKeyFile.map(SettingsValue.text)
        overrides[.wakePhrase] = wake.map(SettingsValue.text)
        overrides[.wakeThreshold] = wakeThreshold.map(SettingsValue.number)
        overrides[.wakeTemplates] = wakeTemplates.map(SettingsValue.text)
        overrides[.wakeIdleAfter] = wakeIdleAfter.map(SettingsValue.number)
        overrides[.socket] = socket.map(SettingsValue.text)
        overrides[.listen] = listen.map(SettingsValue.flag)
        overrides[.debugTurns] = debugTurns.map(SettingsValue.integer)
        overrides[.webListen] = web.map(SettingsValue.text)
        overrides[.webAllowedOrigins] = webAllowedOrigins.map(SettingsValue.text)
        return overrides
    }

    /// The configuration file with the options laid over it. A file with problems (or a
    /// `--config` file that does not exist) is reported on stderr, each problem on its own line
    /// exactly as `earshot config check` prints it, and ends the process with EX_CONFIG (78).
    func startingConfiguration(style: JournalLineStyle) throws -> DaemonConfiguration {
        guard let path = config ?? SettingsLocation.defaultPath() else {
            return try configuration(SettingsOrigin(path: "", file: Settings(), overrides: overrides), style: style)
        }
        let read: Settings?
        do {
            read = try SettingsFile.read(path: path)
        } catch {
            refuse(error.problems.map(\.description) + ["earshotd: not started: fix \(path) (`earshot config check` shows the same)"], style: style)
        }
        if read == nil, config != nil {
            refuse(["\(path): no such file (leave out --config for the defaults)"], style: style)
        }
        let file = read ?? Settings()
        return try configuration(SettingsOrigin(path: path, file: file, overrides: overrides), style: style)
    }

    /// The settings made ready; a value the file's check could not judge (wake templates that
    /// cannot be read) is refused like a bad file.
    private func configuration(_ origin: SettingsOrigin, style: JournalLineStyle) throws -> DaemonConfiguration {
        let configuration: DaemonConfiguration
        do {
            configuration = try DaemonConfiguration(origin: origin)
        } catch {
            guard error.inConfiguration else { throw error }
            let place = origin.path.isEmpty ? "" : "\(origin.path): "
            refuse(["\(place)\(error.message)", "earshotd: not started: fix the configuration"], style: style)
        }
        return configuration
    }

    private func refuse(_ lines: [String], style: JournalLineStyle) -> Never {
        let text = lines.map { style == .journal ? "<3>\($0)\n" : "\($0)\n" }.joined()
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { break }
            bytes = bytes.dropFirst(written)
        }
        Glibc.exit(Self.configurationError)
    }

    /// EX_CONFIG (sysexits.h): the configuration is at fault.
    static let configurationError: Int32 = 78
}
