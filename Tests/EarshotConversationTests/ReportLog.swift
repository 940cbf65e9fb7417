import EarshotBase
import EarshotConversation

/// Collects a queue's reports and lets a test wait for one.
final class ReportLog: Sendable {
    private let reports = Locked<[TranscriptionReport]>([])

    func record(_ report: TranscriptionReport) {
        reports.withLock { $0.append(report) }
    }

    var all: [TranscriptionReport] { reports.withLock { $0 } }

    /// Waits (up to `seconds`; generous, because the whole suite shares two cores) until a report matching `predicate` has arrived.
    func wait(seconds: Double = 60, for predicate: (TranscriptionReport) -> Bool) async -> TranscriptionReport? {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
        while ContinuousClock.now < deadline {
            if let found = all.first(where: predicate) { return found }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return nil
    }
}
