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

    func transcribe(
        _ audio: UtteranceAudio,
        language: String,
        partial: @escaping @Sendable (String) -> Void
    ) async throws -> String
}

extension Transcriber {
    public func prepare() async throws {}
}
