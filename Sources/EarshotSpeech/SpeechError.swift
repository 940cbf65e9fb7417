/// Why a speech backend failed, in words a person can act on: transcribers throw it
/// (``Transcriber``), synthesizers end their stream with it (``Synthesizer``).
public struct SpeechError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// The backend could not be reached or went away; the same request may succeed later.
        case unavailable
        /// The backend did not answer in time; the same request may succeed later.
        case timedOut
        /// The backend answered with an error of its own (an unknown voice, say).
        case rejected
        /// The backend could not be set up (a missing model or engine, a bad address, a voice
        /// with no settings for it); retrying will not help.
        case misconfigured
    }

    public var kind: Kind
    public var message: String
    /// How long the backend asked to be left alone before the next try (HTTP's `Retry-After`).
    public var retryAfter: Duration?

    public init(_ kind: Kind, _ message: String, retryAfter: Duration? = nil) {
        self.kind = kind
        self.message = message
        self.retryAfter = retryAfter
    }

    /// Whether sending the same request (an utterance, a text) again later may succeed.
    public var isRetryable: Bool { kind == .unavailable || kind == .timedOut }

    public var description: String { message }
}

/// The name a transcriber's failure had when it was a type of its own; the same type now.
public typealias TranscriptionError = SpeechError

/// The name a synthesizer's failure had when it was a type of its own; the same type now.
public typealias SynthesisError = SpeechError

extension Duration {
    /// As speech errors give a timeout: "3 s", "0.5 s".
    public var secondsText: String {
        let milliseconds = Int(self / .milliseconds(1))
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        var text = String(Double(milliseconds) / 1000)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return "\(text) s"
    }
}
