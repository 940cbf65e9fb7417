import EarshotBackends
import EarshotProtocol
import EarshotSettings

extension DaemonConfiguration {
    /// The configuration `origin`'s settings make; nil socket: the default path.
    public init(origin: SettingsOrigin) throws(DaemonStartError) {
        let settings = origin.settings
        let transcriber: BackendChoice
        let synthesizer: BackendChoice
        do {
            transcriber = try BackendChoice(parsing: settings.transcription.backend, role: .speechToText)
            synthesizer = try BackendChoice(parsing: settings.speech.backend, role: .textToSpeech)
        } catch {
            throw DaemonStartError(message: error.description)
        }
        self.init(
            socketPath: settings.daemon.socket ?? SocketLocation.defaultPath(),
            soundServer: settings.audio.server,
            source: settings.audio.source,
            sink: settings.audio.sink,
            endpointer: settings.listening.endpointer,
            detector: settings.listening.detector,
            startsListening: settings.daemon.listen,
            playsCues: settings.audio.cues,
            echoCancellation: settings.audio.echoCancellation,
            transcriber: transcriber,
            language: settings.transcription.language,
            replyTimeout: Self.duration(seconds: settings.replies.timeoutSeconds),
            responder: settings.replies.responder,
            responderTimeout: Self.duration(seconds: settings.replies.responderTimeoutSeconds),
            synthesizer: synthesizer,
            voice: settings.speech.voice,
            voicesDirectory: settings.speech.voicesDirectory,
            debugTurns: settings.privacy.debugTurns
        )
        settingsOrigin = origin
    }

    static func duration(seconds: Double) -> Duration {
        .milliseconds(Int((seconds * 1000).rounded()))
    }
}
