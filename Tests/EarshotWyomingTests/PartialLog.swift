import Synchronization

/// Collects what a `@Sendable` callback is given, for checking afterwards.
final class PartialLog: Sendable {
    private let storage = Mutex<[String]>([])

    func append(_ value: String) {
        storage.withLock { $0.append(value) }
    }

    var values: [String] { storage.withLock { $0 } }
}
