/// One transcription request, without I/O: `describe` → `info`, then `transcribe`, `audio-start`,
/// an `audio-chunk` per chunk of audio as it arrives, `audio-stop`, and the transcript back,
/// streamed (`transcript-start`, `transcript-chunk`s, `transcript`, `transcript-stop`) when the
/// server's info says it streams, as one `transcript` otherwise.
///
/// Audio that arrives before the info is queued and sent right after the request.
public struct WyomingTranscriptionMachine: Sendable {
    public enum State: Equatable, Sendable {
        case idle
        /// `describe` sent, no `info` yet.
        case awaitingInfo
        /// The request is sent and audio is flowing.
        case streaming
        /// `audio-stop` sent.
        case awaitingTranscript
        case done
        case failed
    }

    public let request: WyomingTranscribe
    public let format: WyomingAudioFormat
    public private(set) var state = State.idle
    public var info: WyomingInfo? { handshake.info }
    private var handshake = WyomingHandshake(service: .speechToText)
    /// Events waiting for the info.
    private var queued: [WyomingEvent] = []
    private var audioHasEnded = false
    /// The streamed transcript so far.
    private var streamedText = ""

    /// - Parameter format: The audio's format: 16-bit samples, so width 2.
    public init(request: WyomingTranscribe, format: WyomingAudioFormat = .speech) {
        self.request = request
        self.format = format
    }

    /// Whether the server owes an answer, so a response deadline applies.
    public var isAwaitingServer: Bool { state == .awaitingInfo || state == .awaitingTranscript }

    /// Whether the conversation is over, one way or the other.
    public var isFinished: Bool { state == .done || state == .failed }

    /// The connection is open.
    public mutating func start() -> WyomingTranscriptionAction {
        guard state == .idle else { return .none }
        state = .awaitingInfo
        return .send(handshake.opening)
    }

    /// A chunk of the utterance's audio arrived.
    public mutating func audioReceived(_ samples: [Int16]) -> WyomingTranscriptionAction {
        guard !samples.isEmpty, !audioHasEnded else { return .none }
        let chunk = WyomingAudioChunk(format: format, audio: WyomingPCM.bytes(samples)).event
        switch state {
        case .idle, .awaitingInfo:
            queued.append(chunk)
            return .none
        case .streaming:
            return .send([chunk])
        case .awaitingTranscript, .done, .failed:
            return .none
        }
    }

    /// The utterance is over: no more audio.
    public mutating func audioEnded() -> WyomingTranscriptionAction {
        guard !audioHasEnded else { return .none }
        audioHasEnded = true
        guard state == .streaming else { return .none }
        state = .awaitingTranscript
        return .send([WyomingAudioStop().event])
    }

    public mutating func eventReceived(_ event: WyomingEvent) -> WyomingTranscriptionAction {
        switch state {
        case .idle, .done, .failed:
            return .none
        case .awaitingInfo:
            return infoStateReceived(event)
        case .streaming, .awaitingTranscript:
            return transcriptStateReceived(event)
        }
    }

    /// The server closed the connection (or it broke).
    public mutating func connectionClosed() -> WyomingTranscriptionAction {
        guard !isFinished, state != .idle else { return .none }
        return fail(.closedEarly)
    }

    private mutating func infoStateReceived(_ event: WyomingEvent) -> WyomingTranscriptionAction {
        switch handshake.reply(to: event) {
        case .ignored:
            return .none
        case .failed(let failure):
            return fail(failure)
        case .accepted:
            var events = [request.event, WyomingAudioStart(format: format).event] + queued
            queued = []
            if audioHasEnded {
                events.append(WyomingAudioStop().event)
                state = .awaitingTranscript
            } else {
                state = .streaming
            }
            return .send(events)
        }
    }

    private mutating func transcriptStateReceived(_ event: WyomingEvent) -> WyomingTranscriptionAction {
        let streams = info?.supportsTranscriptStreaming ?? false
        switch event.type {
        case WyomingTranscript.eventType:
            do {
                let transcript = try WyomingTranscript(event)
                state = .done
                return .final(transcript.text)
            } catch {
                return fail(.unusable(error.description))
            }
        case WyomingTranscriptStart.eventType where streams:
            streamedText = ""
            return .none
        case WyomingTranscriptChunk.eventType where streams:
            do {
                streamedText += try WyomingTranscriptChunk(event).text
                return .partial(streamedText)
            } catch {
                return fail(.unusable(error.description))
            }
        case WyomingTranscriptStop.eventType where streams:
            state = .done
            return .final(streamedText)
        case WyomingErrorMessage.eventType:
            return fail(WyomingHandshake.rejection(event))
        default:
            return .none
        }
    }

    private mutating func fail(_ failure: WyomingFailure) -> WyomingTranscriptionAction {
        state = .failed
        queued = []
        return .fail(failure)
    }
}

/// What the I/O side must do after an input to ``WyomingTranscriptionMachine``.
public enum WyomingTranscriptionAction: Equatable, Sendable {
    case none
    /// Write these events, in order.
    case send([WyomingEvent])
    /// The running transcript changed (streaming servers only); the whole text so far.
    case partial(String)
    /// The final transcript: the conversation is over.
    case final(String)
    /// The conversation failed: close the connection.
    case fail(WyomingFailure)
}
