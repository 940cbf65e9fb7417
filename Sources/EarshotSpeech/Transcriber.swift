/// A speech-to-text backend that transcribes one utterance at a time, while the person speaks.
///
/// Audio arrives on `audio` (see ``UtteranceAudio``) as the utterance is captured (16 kHz mono signed 16-bit chunks; the
/// first chunk holds the prefix padding) and the stream finishes when the utterance ends. A
/// backend sends each chunk on as it arrives, never waiting for the end, calls `partial` whenever
/// its running hypothesis changes, and returns the final text once the stream has finished.
///
/// Failures are thrown as ``SpeechError``. Cancelling the calling task abandons the
/// utterance and releases whatever the backend held for it.
public protocol Transcriber: Sendable {
    /// How status and logs name the backend, for example "pocketsphinx (embedded)".
    var name: String { get }

    /// Loads what the backend needs (a model) ahead of the first utterance, so the first
    /// transcript is not late. Backends with nothing to load do nothing.
    func prepare() async throws

    /// See the extension's default.
    var decodesSnapshotsAlongside: Bool { get }

    func transcribe(
        _ audio: UtteranceAudio,
        language: String,
        partial: @escaping @Sendable (PartialTranscript) -> Void
    ) async throws -> String

    /// See the extension's default.
    func transcribeToPause(_ audio: UtteranceAudio, language: String) async throws -> String
}

extension Transcriber {
    public func prepare() async throws {}

    /// Whether a snapshot of an utterance under way is decoded beside the utterance itself, so
    /// a reply can be prepared at an eager end of turn. A server would be asked twice at once,
    /// which a small one (one request at a time) cannot answer: only the embedded engine does.
    public var decodesSnapshotsAlongside: Bool { false }

    /// The transcript of an utterance under way as it stands at its ``UtteranceAudio/pause``
    /// (an eager end), decoded to its end while the utterance goes on being transcribed. By
    /// default a ``UtteranceAudio/snapshot()`` is transcribed on its own; a backend that decodes
    /// as the audio comes can end its running decode there instead, and decode the utterance
    /// again from its start only if the person goes on (``UtteranceAudio/markResumed()``).
    public func transcribeToPause(_ audio: UtteranceAudio, language: String) async throws -> String {
        try await transcribe(audio.snapshot(), language: language) { _ in }
    }
}
