import EarshotConversation
import EarshotEngines
import EarshotProtocol
import EarshotPulse
import EarshotSpeech
import Logging
import ServiceLifecycle
import UnixSignals

/// Reads the configuration file again (on SIGHUP) and puts what can change in a running
/// daemon into effect; a file with problems changes nothing and is reported as a
/// `config_invalid` error, with every problem.
struct SettingsReloader: Sendable {
    let settings: DaemonSettings
    let session: VoiceSession
    let engine: PulseAudioEngine
    let logger: Logger

    func reload() async {
        logger.info("Reloading the configuration", metadata: ["file": "\(settings.path)"])
        switch settings.prepareReload() {
        case .failure(let error):
            refuse(error.problems.map(\.description))
        case .success(let (file, reload)):
            var problems: [String] = []
            let voice = reload.applied.contains(.voice) ? checkedVoice(reload.inForce, problems: &problems) : nil
            let wake = Self.wakeKeys.isDisjoint(with: reload.applied) ? nil : checkedWake(reload.inForce, problems: &problems)
            guard problems.isEmpty else { return refuse(problems) }
            settings.commit(file: file, inForce: reload.inForce)
            await apply(reload, voice: voice, wake: wake)
            report(reload)
        }
    }

    /// The voice the new settings name, or a problem saying which voices there are.
    private func checkedVoice(_ settings: Settings, problems: inout [String]) -> Voice? {
        switch session.voice(named: settings.speech.voice) {
        case .success(let voice): return voice
        case .failure(let error):
            problems.append("\(self.settings.path): \(SettingsKey.voice): \(error.message)")
            return nil
        }
    }

    static let wakeKeys: Set<SettingsKey> = [.wakePhrase, .wakeThreshold, .wakeTemplates, .wakeIdleAfter]

    /// The new `[wake]` settings (nil inside: no wake phrase), or a problem saying why its
    /// templates cannot be used (the file's check already refused a phrase it cannot pronounce).
    private func checkedWake(_ settings: Settings, problems: inout [String]) -> WakeSettings?? {
        do {
            return .some(try WakeSettings(settings.wake))
        } catch {
            let key = settings.wake.templates == nil ? SettingsKey.wakePhrase : .wakeTemplates
            problems.append("\(self.settings.path): \(key): \(error.message)")
            return nil
        }
    }

    private func refuse(_ problems: [String]) {
        for problem in problems { logger.error("\(problem)") }
        let message = "The configuration file was not reloaded; the settings stay as they were. " + problems.joined(separator: "; ")
        session.reportError(.configInvalid, message: message)
    }

    private func apply(_ reload: SettingsReload, voice: Voice?, wake: WakeSettings??) async {
        let new = reload.inForce
        let applied = Set(reload.applied)
        if !applied.isDisjoint(with: [
            .vadThreshold, .prefixPadding, .minimumSpeech, .endSilence, .finishedSilence, .maximumEndSilence, .eagerness, .language,
            .replyTimeout, .cues,
        ]) {
            session.reconfigure(
                endpointer: new.endpointer, vadThreshold: Float(new.listening.vadThreshold),
                replyTimeout: DaemonConfiguration.duration(seconds: new.replies.timeoutSeconds), playsCues: new.audio.cues
            )
        }
        if let voice { session.currentVoice = voice }
        if let wake { session.reconfigureWake(wake) }
        if applied.contains(.language) { session.transcription?.language = new.transcription.language }
        if applied.contains(.responder) || applied.contains(.responderTimeout) {
            if let assistant = session.responder?.source as? OpenAIAssistant {
                // The assistant wins over the command, and changes only with a restart.
                logger.notice("[replies] responder changed, but the \(assistant.name) answers; the responder command is not used")
            } else {
                session.replaceResponder(with: new.replies.responder.map {
                    ResponderRunner(source: Responder(
                        command: $0, timeout: DaemonConfiguration.duration(seconds: new.replies.responderTimeoutSeconds)
                    ))
                })
            }
        }
        if applied.contains(.source) {
            await route(.source, to: new.audio.source) { () async throws(PulseError) in try await engine.setSource(new.audio.source) }
        }
        if applied.contains(.sink) {
            await route(.sink, to: new.audio.sink) { () async throws(PulseError) in try await engine.setSink(new.audio.sink) }
        }
    }

    private func route(_ key: SettingsKey, to name: String?, _ change: () async throws(PulseError) -> String) async {
        do {
            _ = try await change()
        } catch {
            let reason = DaemonCommandHandler.protocolError(error, device: name)
            session.reportError(reason.knownCode ?? .internalError, message: "\(key) = \(name.map { "\"\($0)\"" } ?? "the default"): \(reason.message)")
        }
    }

    private func report(_ reload: SettingsReload) {
        for key in reload.restartNeeded {
            logger.warning("\(key) changed; it takes effect when earshotd is restarted")
        }
        for key in reload.overridden {
            logger.notice("\(key) changed in the file, but \(key.flag) on the command line overrides it")
        }
        logger.info("Configuration reloaded", metadata: [
            "applied": "\(reload.applied.map(\.path).joined(separator: ","))",
            "restart_needed": "\(reload.restartNeeded.map(\.path).joined(separator: ","))",
        ])
        session.publish(.config(ConfigReloadEvent(
            file: settings.path, applied: reload.applied.map(\.path), restartNeeded: reload.restartNeeded.map(\.path),
            overridden: reload.overridden.map(\.path), time: session.audioTime
        )))
    }
}

/// Reloads the configuration file whenever the daemon receives SIGHUP, until shutdown.
struct SettingsReloadService: Service {
    /// Trapped before the service group starts, so that a SIGHUP right after start-up reloads
    /// rather than kills the daemon.
    private let signals: UnixSignalsSequence
    /// Nil when the daemon was configured in code, with no file to read again.
    private let reloader: SettingsReloader?
    private let logger: Logger

    init(settings: DaemonSettings?, session: VoiceSession, engine: PulseAudioEngine) async {
        signals = await UnixSignalsSequence(trapping: .sighup)
        let logger = Logger(label: "earshotd.config")
        self.logger = logger
        reloader = settings.map { SettingsReloader(settings: $0, session: session, engine: engine, logger: logger) }
    }

    func run() async {
        for await _ in signals.cancelOnGracefulShutdown() {
            if let reloader {
                await reloader.reload()
            } else {
                logger.notice("SIGHUP ignored: this daemon was not configured from a file")
            }
        }
    }
}
