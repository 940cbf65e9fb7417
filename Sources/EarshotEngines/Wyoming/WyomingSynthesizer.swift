public import EarshotSpeech
public import Logging
public import NIOCore
public import NIOPosix

/// Text-to-speech on a Wyoming server (wyoming-piper, wyoming-ovos-tts, …).
///
/// Every request gets a connection of its own: `describe` → `info`, then `synthesize` (or the
/// streamed `synthesize-start`/`-chunk`/`-stop` when the info says the server takes it, which
/// lets it speak the first sentence while it synthesizes the rest). Audio is yielded as each
/// `audio-chunk` arrives. When the consumer stops iterating, the connection is closed.
public struct WyomingSynthesizer: Synthesizer {
    public let endpoint: WyomingEndpoint
    public let timeouts: WyomingTimeouts
    private let eventLoopGroup: any EventLoopGroup
    private let logger: Logger

    /// - Parameter logger: Where each request's timing and failures are logged; silent unless given.
    public init(
        endpoint: WyomingEndpoint,
        timeouts: WyomingTimeouts = WyomingTimeouts(),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "earshot.wyoming.tts", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.endpoint = endpoint
        self.timeouts = timeouts
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
    }

    public var name: String { "Wyoming text-to-speech at \(endpoint)" }

    /// Speaks in `voice.wyoming`'s voice and speaker, or the server's default voice when the voice
    /// has no Wyoming settings.
    public func synthesize(_ text: String, voice: Voice) -> AsyncThrowingStream<SpeechChunk, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SpeechChunk.self)
        // Servers answer an empty `synthesize` with nothing at all, not even audio-stop.
        guard text.contains(where: { !$0.isWhitespace }) else {
            continuation.finish()
            return stream
        }
        let request = WyomingSynthesize(
            text: text,
            voice: voice.wyoming.map { WyomingSynthesizeVoice(name: $0.voice, speaker: $0.speaker) }
        )
        let task = Task {
            do {
                try await WyomingConnection.run(to: endpoint, timeouts: timeouts, eventLoopGroup: eventLoopGroup) {
                    (link: WyomingLink<Never>) in
                    try await converse(link, request: request) { continuation.yield($0) }
                }
                continuation.finish()
            } catch let failure as WyomingClientFailure {
                let error = failure.speechError(.textToSpeech, endpoint: endpoint)
                logger.debug("\(error.message)")
                continuation.finish(throwing: error)
            } catch {
                if error is CancellationError || Task.isCancelled {
                    continuation.finish(throwing: CancellationError())
                } else {
                    let reason = WyomingConnection.reason(error)
                    continuation.finish(throwing: WyomingClientFailure.connectionBroken(reason).speechError(.textToSpeech, endpoint: endpoint))
                }
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func converse(
        _ link: WyomingLink<Never>, request: WyomingSynthesize, emit: (SpeechChunk) -> Void
    ) async throws {
        var requested: ContinuousClock.Instant?
        try await link.drive(WyomingSynthesisMachine(request: request), timeouts: timeouts) { action, state -> Void? in
            switch action {
            case .none:
                break
            case .send(let events):
                try await link.send(events)
                if state == .receivingAudio { requested = .now }
            case .audio(let samples, let sampleRate):
                if let sent = requested {
                    logger.debug("first audio \(ContinuousClock.now - sent) after the request", metadata: ["server": "\(endpoint)"])
                    requested = nil
                }
                emit(SpeechChunk(sampleRate: sampleRate, samples: samples))
            case .finished:
                return ()
            case .fail(let failure):
                throw WyomingClientFailure.conversation(failure)
            }
            return nil
        }
    }
}
