public import EarshotSpeech
public import Logging

/// Makes the configured backends.
public enum SpeechBackends {
    public static func transcriber(_ choice: BackendChoice, options: BackendOptions = .init(), logger: Logger) -> (any Transcriber)? {
        switch choice {
        case .none: nil
        case .embedded: embeddedTranscriber(unloadAfter: options.unloadAfter, logger: logger)
        case .wyoming(let endpoint): WyomingTranscriber(endpoint: endpoint, model: options.model, logger: logger)
        case .openAI(let endpoint): OpenAITranscriber(endpoint: endpoint, model: options.model, apiKey: options.apiKey, logger: logger)
        }
    }

    /// The model loads at the first utterance; a missing one is said at once all the same.
    private static func embeddedTranscriber(unloadAfter: Duration?, logger: Logger) -> EmbeddedTranscriber {
        let transcriber = EmbeddedTranscriber(unload: idleUnload(after: unloadAfter, logger: logger))
        do {
            try transcriber.checkModel()
        } catch {
            logger.error("The transcriber could not get ready: \(error)")
        }
        return transcriber
    }

    public static func synthesizer(_ choice: BackendChoice, options: BackendOptions = .init(), logger: Logger) -> (any Synthesizer)? {
        switch choice {
        case .none: nil
        case .embedded: EmbeddedSynthesizer(unload: idleUnload(after: options.unloadAfter, logger: logger))
        case .wyoming(let endpoint): WyomingSynthesizer(endpoint: endpoint, logger: logger)
        case .openAI(let endpoint): OpenAISynthesizer(endpoint: endpoint, apiKey: options.apiKey, logger: logger)
        }
    }

    /// Logs each load and release: at most once per idle period, never per utterance.
    static func idleUnload(after delay: Duration?, logger: Logger) -> IdleUnload {
        IdleUnload(after: delay) { event in
            switch event {
            case let .loaded(what, duration):
                logger.info("\(what) loaded in \(duration.roundedMilliseconds) ms")
            case let .released(what, idle):
                logger.info("\(what) released after \(idle.roundedSeconds) s idle")
            }
        }
    }
}

/// What a server backend is asked for besides its address.
public struct BackendOptions: Equatable, Sendable {
    /// The model to ask for; nil: the server's default (OpenAI-compatible servers: whisper-1).
    public var model: String?
    /// The key for an OpenAI-compatible server; nil sends none.
    public var apiKey: OpenAIAPIKey?
    /// How long an embedded engine keeps its model or voices unused; nil keeps them once loaded.
    public var unloadAfter: Duration?

    public init(model: String? = nil, apiKey: OpenAIAPIKey? = nil, unloadAfter: Duration? = BackendOptions.defaultUnloadAfter) {
        self.model = model
        self.apiKey = apiKey
        self.unloadAfter = unloadAfter
    }

    /// `[transcription]` and `[speech]` `unload_after`'s default: five minutes.
    public static let defaultUnloadAfter: Duration? = .seconds(300)

    /// With the key from `keyFile` (checked: its owner's alone), else from `OPENAI_API_KEY`.
    public static func loading(
        model: String?, keyFile: String?, unloadAfter: Duration? = defaultUnloadAfter
    ) throws(OpenAIAPIKeyError) -> BackendOptions {
        BackendOptions(
            model: model, apiKey: try OpenAIAPIKey.load(file: keyFile, environment: OpenAIAPIKey.processEnvironment), unloadAfter: unloadAfter
        )
    }
}

/// The offline default: flite for English voices (far clearer), espeak-ng for other languages
/// or a voice with no flite settings.
public struct EmbeddedSynthesizer: Synthesizer {
    private let flite: FliteSynthesizer
    private let espeak: EspeakSynthesizer

    public init(unload: IdleUnload = .never) {
        flite = FliteSynthesizer(unload: unload)
        espeak = EspeakSynthesizer(unload: unload)
    }

    public let name = "flite + espeak-ng (embedded)"

    public func synthesize(_ text: String, voice: Voice) -> AsyncThrowingStream<SpeechChunk, any Error> {
        if voice.isEnglish, voice.flite != nil { return flite.synthesize(text, voice: voice) }
        return espeak.synthesize(text, voice: voice)
    }
}

extension Duration {
    fileprivate var roundedMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + (attoseconds + 500_000_000_000_000) / 1_000_000_000_000_000
    }

    fileprivate var roundedSeconds: Int64 {
        (roundedMilliseconds + 500) / 1000
    }
}
