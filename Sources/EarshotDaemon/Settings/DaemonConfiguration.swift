public import EarshotAudio
public import EarshotEngines
public import EarshotProtocol
import EarshotServer

/// Everything `earshotd` is told at start: where to listen, which devices, how to endpoint.
public struct DaemonConfiguration: Sendable {
    /// The socket path front ends connect to.
    public var socketPath: String
    /// The sound server (`unix:/path` or a host), or nil for libpulse's default (`PULSE_SERVER`).
    public var soundServer: String?
    /// The source to record from, or nil to follow the server's default.
    public var source: String?
    /// The sink to play to, or nil to follow the server's default.
    public var sink: String?
    public var endpointer: Endpointer.Configuration
    public var detector: SpectralVAD.Configuration
    /// Enter voice mode (listening) as soon as the daemon starts, without a front end's `start`.
    public var startsListening: Bool
    /// Play a short cue on entering and leaving voice mode.
    public var playsCues: Bool
    /// Capture and play through PulseAudio's echo canceller (module-echo-cancel, webrtc), for
    /// speakers rather than headphones. The echo gate guards barge-in either way.
    public var echoCancellation: Bool
    /// Which backend transcribes utterances.
    public var transcriber: BackendChoice
    /// The transcription server's model and key, and how long the embedded engine keeps its
    /// model without an utterance (nil: for good).
    public var transcriberOptions: BackendOptions
    /// The language spoken, for the transcriber (BCP 47).
    public var language: String
    /// How long `thinking` waits for a front end's (or the responder's) reply before returning
    /// to listening with an error.
    public var replyTimeout: Duration
    /// A command run per final transcript (through /bin/sh): the transcript on its stdin, each
    /// line of its output spoken as it arrives. Nil: front ends answer with `speak`.
    public var responder: String?
    /// How long the responder may stay silent before it is stopped.
    public var responderTimeout: Duration
    /// The built-in assistant on a chat server; nil: none. It wins over `responder`.
    public var assistant: AssistantConfiguration?
    /// The phrase voice mode waits for before it takes turns; nil: it takes every utterance.
    public var wake: WakeSettings?
    /// Which backend speaks replies.
    public var synthesizer: BackendChoice
    /// The speech server's key, and how long the embedded engines keep their voices without
    /// speaking (nil: for good).
    public var synthesizerOptions: BackendOptions
    /// The voice replies are spoken in, by id or name (Breeze when nil).
    public var voice: String?
    /// Where the bundled voices are (found next to the executable or in the checkout when nil).
    public var voicesDirectory: String?
    /// How many of the latest turns' microphone audio to keep on disk for bug reports; 0 (the
    /// default) writes no audio at all.
    public var debugTurns: Int
    /// Where the web front door listens, with the other origins allowed; nil: none.
    public var web: (listen: WebListenAddress, allowedOrigins: [String])?
    /// The configuration file and command line these settings were made from, read again on
    /// SIGHUP; nil when made in code (then SIGHUP changes nothing).
    public var settingsOrigin: SettingsOrigin?

    public init(
        socketPath: String,
        soundServer: String? = nil,
        source: String? = nil,
        sink: String? = nil,
        endpointer: Endpointer.Configuration = .init(),
        detector: SpectralVAD.Configuration = .init(),
        startsListening: Bool = false,
        playsCues: Bool = false,
        echoCancellation: Bool = false,
        transcriber: BackendChoice = .embedded,
        transcriberOptions: BackendOptions = .init(),
        language: String = "en-US",
        replyTimeout: Duration = .seconds(15),
        responder: String? = nil,
        responderTimeout: Duration = .seconds(30),
        synthesizer: BackendChoice = .embedded,
        synthesizerOptions: BackendOptions = .init(),
        voice: String? = nil,
        voicesDirectory: String? = nil,
        debugTurns: Int = 0,
        web: (listen: WebListenAddress, allowedOrigins: [String])? = nil
    ) {
        self.socketPath = socketPath
        self.soundServer = soundServer
        self.source = source
        self.sink = sink
        self.endpointer = endpointer
        self.detector = detector
        self.startsListening = startsListening
        self.playsCues = playsCues
        self.echoCancellation = echoCancellation
        self.transcriber = transcriber
        self.transcriberOptions = transcriberOptions
        self.language = language
        self.replyTimeout = replyTimeout
        self.responder = responder
        self.responderTimeout = responderTimeout
        self.synthesizer = synthesizer
        self.synthesizerOptions = synthesizerOptions
        self.voice = voice
        self.voicesDirectory = voicesDirectory
        self.debugTurns = debugTurns
        self.web = web
    }
}

// MARK: From the settings

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
        // A key is read only for a server that takes one: a broken key file stops the start in words.
        let transcriberUnload = Self.unloadDelay(seconds: settings.transcription.unloadAfterSeconds)
        let synthesizerUnload = Self.unloadDelay(seconds: settings.speech.unloadAfterSeconds)
        var transcriberOptions = BackendOptions(model: settings.transcription.model, unloadAfter: transcriberUnload)
        var synthesizerOptions = BackendOptions(unloadAfter: synthesizerUnload)
        do {
            if case .openAI = transcriber {
                transcriberOptions = try .loading(
                    model: settings.transcription.model, keyFile: settings.transcription.apiKeyFile, unloadAfter: transcriberUnload
                )
            }
            if case .openAI = synthesizer {
                synthesizerOptions = try .loading(model: nil, keyFile: settings.speech.apiKeyFile, unloadAfter: synthesizerUnload)
            }
        } catch {
            throw DaemonStartError(message: error.description)
        }
        var web: (listen: WebListenAddress, allowedOrigins: [String])?
        if let listen = settings.web.listen {
            do {
                web = (try WebListenAddress(parsing: listen), try WebAccess.origins(parsing: settings.web.allowedOrigins ?? ""))
            } catch let error as WebListenAddressError {
                throw DaemonStartError(message: error.description)
            } catch {
                throw DaemonStartError(message: "[web] allowed_origins: \(error)")
            }
        }
        self.init(
            socketPath: settings.daemon.socket ?? SocketLocation.defaultPath(),
            soundServer: settings.audio.server,
            source: settings.audio.source,
            sink: settings.audio.sink,
            endpointer: settings.endpointer,
            detector: settings.listening.detector,
            startsListening: settings.daemon.listen,
            playsCues: settings.audio.cues,
            echoCancellation: settings.audio.echoCancellation,
            transcriber: transcriber,
            transcriberOptions: transcriberOptions,
            language: settings.transcription.language,
            replyTimeout: Self.duration(seconds: settings.replies.timeoutSeconds),
            responder: settings.replies.responder,
            responderTimeout: Self.duration(seconds: settings.replies.responderTimeoutSeconds),
            synthesizer: synthesizer,
            synthesizerOptions: synthesizerOptions,
            voice: settings.speech.voice,
            voicesDirectory: settings.speech.voicesDirectory,
            debugTurns: settings.privacy.debugTurns,
            web: web
        )
        do {
            assistant = try AssistantConfiguration(settings.assistant, environment: OpenAIAPIKey.processEnvironment)
        } catch {
            throw DaemonStartError(message: error.description)
        }
        do {
            wake = try WakeSettings(settings.wake)
        } catch {
            throw DaemonStartError(message: "[wake] \(settings.wake.templates == nil ? "phrase" : "templates"): \(error.message)", inConfiguration: true)
        }
        settingsOrigin = origin
    }

    static func duration(seconds: Double) -> Duration {
        .milliseconds(Int((seconds * 1000).rounded()))
    }

    /// An `unload_after` setting: 0 means never.
    static func unloadDelay(seconds: Double) -> Duration? {
        seconds > 0 ? duration(seconds: seconds) : nil
    }
}

/// A setting the daemon cannot start with, in words.
public struct DaemonStartError: Error, CustomStringConvertible {
    public var message: String
    /// Whether the configuration is at fault (a key's value the file's check cannot judge, such
    /// as a directory of wake templates): the daemon ends as for a bad file.
    public var inConfiguration = false
    public var description: String { message }

    public init(message: String, inConfiguration: Bool = false) {
        self.message = message
        self.inConfiguration = inConfiguration
    }
}
