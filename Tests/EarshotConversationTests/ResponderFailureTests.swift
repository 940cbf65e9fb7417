import EarshotConversation
import EarshotTestSupport
import Foundation
import Testing

/// Commands that fail, cannot be found, are killed or say nothing for too long.
@Suite struct ResponderFailureTests {
    typealias Harness = ResponderHarness

    @Test func aNonZeroStatusIsReportedWithWhatTheCommandSaidOnStderr() async {
        let (_, error) = await Harness.collect(#"echo "model overloaded, try later" >&2; exit 3"#)
        #expect(error?.kind == .failed(status: 3))
        #expect(error?.message == #"The responder `echo "model overloaded, try later" >&2; exit 3` exited with status 3: model overloaded, try later"#)
        #expect(error?.description == error?.message)
    }

    @Test func onlyTheLastOfALongStderrIsQuoted() async {
        let (_, error) = await Harness.collect(#"i=0; while [ $i -lt 500 ]; do echo "log line $i" >&2; i=$((i+1)); done; echo "the real reason" >&2; exit 1"#)
        #expect(error?.kind == .failed(status: 1))
        let message = error?.message ?? ""
        #expect(message.hasSuffix("log line 499\nthe real reason"))
        #expect(!message.contains("log line 1\n"))
        #expect(message.utf8.count < 2048 + 200)
    }

    @Test func aMissingCommandIsSaidToBeNotFound() async {
        let (pieces, error) = await Harness.collect("earshot-no-such-responder --fast")
        #expect(pieces == [])
        #expect(error?.kind == .notFound)
        #expect(error?.message.hasPrefix("The responder command was not found: `earshot-no-such-responder --fast` (") == true)
        #expect(error?.message.contains("earshot-no-such-responder: not found") == true)
    }

    @Test func aCommandThatCannotBeExecutedCouldNotStart() async throws {
        let directory = try Harness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("not-executable").path
        try "echo hi\n".write(toFile: script, atomically: true, encoding: .utf8)
        let (_, error) = await Harness.collect("'\(script)'")
        #expect(error?.kind == .couldNotStart)
        #expect(error?.message.contains("could not be run") == true)
    }

    @Test func aCommandKilledByASignalSaysWhichSignal() async {
        let (pieces, error) = await Harness.collect("echo 'Starting.'; kill -9 $$")
        #expect(error?.kind == .killedBySignal(SIGKILL))
        #expect(error?.message == "The responder `echo 'Starting.'; kill -9 $$` was killed by signal 9 (SIGKILL).")
        #expect(pieces.count <= 1)
    }

    @Test func aSilentCommandTimesOutAndIsGone() async throws {
        let directory = try Harness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pidFile = directory.appendingPathComponent("pid").path
        let started = ContinuousClock.now
        let (pieces, error) = await Harness.collect("echo $$ > '\(pidFile)'; sleep 30", timeout: .milliseconds(300))
        // Within the timeout and the second of grace SIGTERM gets before SIGKILL.
        #expect(ContinuousClock.now - started < .seconds(3))
        #expect(pieces == [])
        #expect(error?.kind == .timedOut)
        #expect(error?.message.hasPrefix("The responder `echo $$ > '/") == true)
        #expect(error?.message.hasSuffix("…` printed nothing for 0.3 seconds and was stopped.") == true)
        let pids = try await Harness.pids(in: pidFile)
        #expect(pids.count == 1)
        // The shell was the responder's own child: reaped, not even a zombie.
        #expect(pids.allSatisfy { !ProcessTable.exists($0) })
    }

    @Test func theTimeoutCountsFromTheLastOutput() async {
        let (pieces, error) = await Harness.collect(
            "for i in 1 2 3 4 5; do echo \"Line $i.\"; sleep 0.3; done", timeout: .seconds(1)
        )
        #expect(error == nil)
        #expect(pieces == ["Line 1.", "Line 2.", "Line 3.", "Line 4.", "Line 5."])
    }

    @Test func aCommandThatStopsPrintingTimesOutAfterWhatItSaid() async {
        let (pieces, error) = await Harness.collect("echo 'Thinking.'; exec >&-; sleep 30", timeout: .milliseconds(300))
        #expect(pieces == ["Thinking."])
        #expect(error?.kind == .timedOut)
    }
}
