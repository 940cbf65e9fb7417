/// One synthesis request, without I/O: `describe` → `info`, then either `synthesize`, or, when
/// the info says the server takes streamed text, `synthesize-start`, `synthesize-chunk`,
/// `synthesize` (for servers that ignore the stream) and `synthesize-stop`. The audio comes back
/// as audio-start, audio-chunks and audio-stop (several runs of them when streamed, one per
/// sentence, ended by `synthesize-stopped`).
///
/// Only 16-bit audio is accepted; more than one channel is mixed down to mono.
public struct WyomingSynthesisMachine: Sendable {
    public enum State: Equatable, Sendable {
        case idle
        /// `describe` sent, no `info` yet.
        case awaitingInfo
        /// The request is sent; audio is expected.
        case receivingAudio
        case done
        case failed
    }

    public let request: WyomingSynthesize
    public private(set) var state = State.idle
    public var info: WyomingInfo? { handshake.info }
    private var handshake = WyomingHandshake(service: .textToSpeech)
    /// Whether the request went out as streamed text.
    public private(set) var usesStreaming = false
    /// The format from the latest audio-start.
    private var format: WyomingAudioFormat?
    /// Bytes of a frame split across two chunks.
    private var partialFrame: [UInt8] = []

    public init(request: WyomingSynthesize) {
        self.request = request
    }

    /// Whether the server owes an answer, so a response deadline applies.
    public var isAwaitingServer: Bool { state == .awaitingInfo || state == .receivingAudio }

    public var isFinished: Bool { state == .done || state == .failed }

    /// The connection is open.
    public mutating func start() -> WyomingSynthesisAction {
        guard state == .idle else { return .none }
        state = .awaitingInfo
        return .send(handshake.opening)
    }

    public mutating func eventReceived(_ event: WyomingEvent) -> WyomingSynthesisAction {
        switch state {
        case .idle, .done, .failed:
            return .none
        case .awaitingInfo:
            return infoStateReceived(event)
        case .receivingAudio:
            return audioStateReceived(event)
        }
    }

    /// The server closed the connection (or it broke).
    public mutating func connectionClosed() -> WyomingSynthesisAction {
        guard !isFinished, state != .idle else { return .none }
        return fail(.closedEarly)
    }

    private mutating func infoStateReceived(_ event: WyomingEvent) -> WyomingSynthesisAction {
        switch handshake.reply(to: event) {
        case .ignored:
            return .none
        case .failed(let failure):
            return fail(failure)
        case .accepted(let info):
            state = .receivingAudio
            usesStreaming = info.supportsSynthesizeStreaming
            guard usesStreaming else { return .send([request.event]) }
            return .send([
                WyomingSynthesizeStart(voice: request.voice).event,
                WyomingSynthesizeChunk(text: request.text).event,
                request.event,
                WyomingSynthesizeStop().event,
            ])
        }
    }

    private mutating func audioStateReceived(_ event: WyomingEvent) -> WyomingSynthesisAction {
        switch event.type {
        case WyomingAudioStart.eventType:
            do {
                format = try WyomingAudioStart(event).format
                partialFrame = []
                return .none
            } catch {
                return fail(.unusable(error.description))
            }
        case WyomingAudioChunk.eventType:
            do {
                return audioReceived(try WyomingAudioChunk(event))
            } catch {
                return fail(.unusable(error.description))
            }
        case WyomingAudioStop.eventType where !usesStreaming, WyomingSynthesizeStopped.eventType:
            state = .done
            return .finished
        case WyomingErrorMessage.eventType:
            return fail(WyomingHandshake.rejection(event))
        default:
            return .none
        }
    }

    private mutating func audioReceived(_ chunk: WyomingAudioChunk) -> WyomingSynthesisAction {
        let format = self.format ?? chunk.format
        guard format.width == 2 else {
            return fail(.unusable("audio of \(format.width * 8)-bit samples; only 16-bit audio can be played"))
        }
        guard format.rate > 0, format.channels > 0 else {
            return fail(.unusable("audio at \(format.rate) Hz in \(format.channels) channels"))
        }
        let bytes = partialFrame + chunk.audio
        let whole = bytes.count - bytes.count % format.bytesPerFrame
        partialFrame = Array(bytes[whole...])
        guard whole > 0 else { return .none }
        return .audio(samples: WyomingPCM.samples(bytes[..<whole], channels: format.channels), sampleRate: format.rate)
    }

    private mutating func fail(_ failure: WyomingFailure) -> WyomingSynthesisAction {
        state = .failed
        return .fail(failure)
    }
}

/// What the I/O side must do after an input to ``WyomingSynthesisMachine``.
public enum WyomingSynthesisAction: Equatable, Sendable {
    case none
    /// Write these events, in order.
    case send([WyomingEvent])
    /// Play these mono 16-bit samples.
    case audio(samples: [Int16], sampleRate: Int)
    /// All the audio has arrived: the conversation is over.
    case finished
    /// The conversation failed: close the connection.
    case fail(WyomingFailure)
}
