import Synchronization

/// Partial transcripts reported by a transcriber's thread, collected until the replay takes them.
final class PartialTranscripts: Sendable {
    private let texts = Mutex<[String]>([])

    func append(_ text: String) {
        texts.withLock { $0.append(text) }
    }

    func take() -> [String] {
        texts.withLock { texts in
            defer { texts.removeAll() }
            return texts
        }
    }
}
