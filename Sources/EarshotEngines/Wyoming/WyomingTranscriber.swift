public import EarshotSpeech
public import Logging
public import NIOCore
public import NIOPosix

/// Speech-to-text on a Wyoming server (wyoming-faster-whisper, wyoming-ovos-stt, …).
///
/// Every utterance gets a connection of its own (the servers close theirs after each
/// transcript): `describe` → `info`, `transcribe`, `audio-start`, an `audio-chunk` for each chunk
/// as it is captured, `audio-stop`, then the transcript. A failed utterance leaves nothing behind;
/// the next call connects afresh. Retrying and backing off are the caller's concern.
public struct WyomingTranscriber: Transcriber {
    public let endpoint: WyomingEndpoint
    /// The model to ask for, from the server's info; nil for its default.
    public let model: String?
    public let timeouts: WyomingTimeouts
    private let eventLoopGroup: any EventLoopGroup
    private let logger: Logger

    /// - Parameter logger: Where each request's timing and failures are logged; silent unless given.
    public init(
        endpoint: WyomingEndpoint,
        model: String? = nil,
        timeouts: WyomingTimeouts = WyomingTimeouts(),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "earshot.wyoming.stt", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.endpoint = endpoint
        self.model = model
        self.timeouts = timeouts
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
    }

    public var name: String { "Wyoming speech-to-text at \(endpoint)" }

    public func transcribe(
        _ audio: UtteranceAudio,
        language: String,
        partial: @escaping @Sendable (PartialTranscript) -> Void
    ) async throws -> String {
        do {
            let text = try await WyomingConnection.run(
                to: endpoint, timeouts: timeouts, eventLoopGroup: eventLoopGroup,
                feed: { [timeouts] continuation, deadline in
                    for await samples in audio {
                        guard !Task.isCancelled else { return }
                        continuation.yield(.local(.audio(samples)))
                    }
                    guard !Task.isCancelled else { return }
                    deadline.armIfIdle(timeouts.response, awaiting: "the transcript")
                    continuation.yield(.local(.ended))
                },
                converse: { link in try await converse(link, language: language, partial: partial) }
            )
            return text
        } catch let failure as WyomingClientFailure {
            let error = failure.speechError(.speechToText, endpoint: endpoint)
            logger.debug("\(error.message)")
            throw error
        } catch {
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            throw WyomingClientFailure.connectionBroken(WyomingConnection.reason(error)).speechError(.speechToText, endpoint: endpoint)
        }
    }

    private func converse(
        _ link: WyomingLink<AudioInput>, language: String, partial: @Sendable (PartialTranscript) -> Void
    ) async throws -> String {
        let machine = WyomingTranscriptionMachine(request: WyomingTranscribe(language: language, name: model))
        var audioStopped: ContinuousClock.Instant?
        return try await link.drive(machine, timeouts: timeouts) { machine, input in
            switch input {
            case .audio(let samples): machine.audioReceived(samples)
            case .ended: machine.audioEnded()
            }
        } perform: { action, _ -> String? in
            switch action {
            case .none:
                break
            case .send(let events):
                try await link.send(events)
                if events.contains(where: { $0.type == WyomingAudioStop.eventType }) { audioStopped = .now }
            case .partial(let text):
                partial(PartialTranscript(text: text))
            case .final(let text):
                if let audioStopped {
                    logger.debug("transcript \(ContinuousClock.now - audioStopped) after audio-stop", metadata: ["server": "\(endpoint)"])
                }
                return text
            case .fail(let failure):
                throw WyomingClientFailure.conversation(failure)
            }
            return nil
        }
    }
}

extension WyomingTranscriber {
    /// What the caller contributes to the conversation.
    enum AudioInput: Sendable {
        case audio([Int16])
        case ended
    }
}
