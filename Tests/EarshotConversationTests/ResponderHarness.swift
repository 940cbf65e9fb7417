import EarshotConversation
import EarshotTestSupport
import Foundation
import Testing

/// Runs responders the way a conversation would and looks at what they leave behind.
enum ResponderHarness {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/responder")

    static func fixture(_ name: String) -> String {
        fixtures.appendingPathComponent(name).path
    }

    /// Every piece of the reply, and the error that ended it, if any.
    static func collect(
        _ command: String, transcript: String = "hello", turn: Int = 1, timeout: Duration = .seconds(10)
    ) async -> (pieces: [String], error: ResponderError?) {
        let responder = Responder(command: command, timeout: timeout)
        var pieces: [String] = []
        do {
            for try await piece in responder.respond(turn: turn, transcript: transcript) { pieces.append(piece) }
            return (pieces, nil)
        } catch let error as ResponderError {
            return (pieces, error)
        } catch {
            Issue.record("not a ResponderError: \(error)")
            return (pieces, nil)
        }
    }

    /// A fresh directory for a test's files, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("earshot-responder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The pids a script wrote to `path` (waiting for the file to appear).
    static func pids(in path: String, patience: Duration = .seconds(10)) async throws -> [pid_t] {
        let deadline = ContinuousClock.now + patience
        while ContinuousClock.now < deadline {
            if let text = try? String(contentsOfFile: path, encoding: .utf8) {
                return text.split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return []
    }

    /// Whether every pid is gone within `patience`. A process that was not our child counts as
    /// gone as a zombie too: reaping it is its new parent's business, not the responder's.
    static func allGone(_ pids: [pid_t], patience: Duration = .seconds(2)) async -> Bool {
        let deadline = ContinuousClock.now + patience
        while ContinuousClock.now < deadline {
            if pids.allSatisfy({ ProcessTable.state($0) == nil || ProcessTable.state($0) == "Z" }) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Whether `pid`, a child of this process, is out of the process table within `patience`.
    static func reaped(_ pid: pid_t, patience: Duration = .seconds(2)) async -> Bool {
        let deadline = ContinuousClock.now + patience
        while ProcessTable.exists(pid) {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// How many descriptors this process has open.
    static func openDescriptorCount() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
    }
}
