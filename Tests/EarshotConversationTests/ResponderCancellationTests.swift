import EarshotConversation
import EarshotTestSupport
import Foundation
import Testing

/// A reply no longer wanted (the user barged in, the turn was cancelled) stops the command and
/// whatever it started, and leaves nothing behind.
@Suite struct ResponderCancellationTests {
    typealias Harness = ResponderHarness

    @Test func stoppingIterationStopsTheCommandAndItsChild() async throws {
        let directory = try Harness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pidFile = directory.appendingPathComponent("pids").path
        let responder = Responder(command: "exec sh '\(Harness.fixture("lingering.sh"))' '\(pidFile)'", timeout: .seconds(60))
        var pieces: [String] = []
        for try await piece in responder.respond(turn: 1, transcript: "go on") {
            pieces.append(piece)
            break
        }
        #expect(pieces == ["Here is the first part."])
        let pids = try await Harness.pids(in: pidFile)
        #expect(pids.count == 2, "the script and its child")
        #expect(await Harness.allGone(pids), "still running: \(pids.filter { ProcessTable.state($0) != nil })")
        // The script is the shell the responder started (exec): reaped, not left a zombie.
        #expect(await Harness.reaped(pids.first ?? 0))
    }

    @Test func cancellingTheConsumingTaskStopsTheCommand() async throws {
        let directory = try Harness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pidFile = directory.appendingPathComponent("pids").path
        let responder = Responder(command: "exec sh '\(Harness.fixture("lingering.sh"))' '\(pidFile)'", timeout: .seconds(60))
        let firstPiece = AsyncStream<String>.makeStream()
        let consumer = Task {
            var pieces: [String] = []
            for try await piece in responder.respond(turn: 2, transcript: "go on") {
                pieces.append(piece)
                firstPiece.continuation.yield(piece)
            }
            return pieces
        }
        var firstPieces = firstPiece.stream.makeAsyncIterator()
        #expect(await firstPieces.next() == "Here is the first part.")
        consumer.cancel()
        let pids = try await Harness.pids(in: pidFile)
        #expect(pids.count == 2)
        #expect(await Harness.allGone(pids))
        #expect(await Harness.reaped(pids.first ?? 0))
        // Stopped, not failed: the consumer's loop just ends.
        #expect(try await consumer.value == ["Here is the first part."])
    }

    @Test func manyRepliesLeaveNoDescriptorsOpen() async throws {
        let before = try Harness.openDescriptorCount()
        for turn in 1...15 {
            _ = await Harness.collect(turn.isMultiple(of: 2) ? "echo 'Fine.'" : "echo oops >&2; exit 1", turn: turn)
        }
        for turn in 16...20 {
            let responder = Responder(command: "echo 'Partly.'; sleep 30", timeout: .seconds(60))
            for try await _ in responder.respond(turn: turn, transcript: "x") { break }
        }
        // Other suites open and close descriptors meanwhile; a leak would be 3 or 4 per reply.
        let deadline = ContinuousClock.now + .seconds(5)
        var after = try Harness.openDescriptorCount()
        while after > before + 8, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            after = try Harness.openDescriptorCount()
        }
        #expect(after <= before + 8, "\(before) descriptors open before, \(after) after")
    }
}
