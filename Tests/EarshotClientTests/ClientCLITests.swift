import EarshotTestSupport
import Foundation
import Testing

/// The `earshot` commands that drive the daemon, run as a person would, against the scripted
/// daemon.
@Suite(.enabled(if: TestPeers.product("earshot"), "the earshot binary is not built"), .tags(.live))
struct ClientCLITests {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String]) throws -> Outcome {
        let outcome = try BuiltProduct.run("earshot", arguments)
        return Outcome(status: outcome.status, stdout: outcome.stdoutText, stderr: outcome.stderr)
    }

    @Test(arguments: [["status"], ["status", "--json"], ["start"], ["mute"], ["devices"], ["events"], ["watch"]])
    func everyCommandSaysTheDaemonIsNotRunningAndExits3(command: [String]) throws {
        let path = ScriptedDaemonPeer.freshPath()
        let outcome = try Self.run(command + ["--socket", path])
        #expect(outcome.status == 3)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.hasPrefix("The Earshot daemon is not running: there is no socket at \(path)."))
        #expect(outcome.stderr.contains("earshotd"))
        #expect(outcome.stderr.split(separator: "\n").count <= 2)
    }

    @Test func aTurnCommandPrintsTheResultingState() throws {
        let peer = try ScriptedDaemonPeer([
            .succeed(#""state":{"state":"listening","turn":0,"muted":false,"controls":["dismiss","mute"]}"#),
        ])
        let outcome = try Self.run(["start", "--socket", peer.path])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "listening · turn 0 · microphone on · controls: dismiss, mute\n")
        #expect(peer.linesReceived() == [#"{"id":1,"cmd":"start"}"#])
    }

    @Test func aRefusalPrintsTheDaemonsMessageAndExits1() throws {
        let peer = try ScriptedDaemonPeer([.fail(code: "nothing_playing", message: "Nothing is playing, so there is nothing to stop.")])
        let outcome = try Self.run(["stop", "--socket", peer.path])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr == "Nothing is playing, so there is nothing to stop.\n")
    }

    @Test func statusPrintsASummaryOrTheRawLine() throws {
        let fields = #""state":{"state":"idle","turn":0,"muted":false,"controls":[]},"uptime":61,"errors":[]"#
        let peer = try ScriptedDaemonPeer([.succeed(fields), .hangUp])
        let summary = try Self.run(["status", "--socket", peer.path])
        #expect(summary.status == 0)
        #expect(summary.stdout == """
            state     idle · turn 0 · microphone on · no controls
            uptime    1 min 01 s
            errors    none

            """)
        let raw = try ScriptedDaemonPeer([.succeed(fields)])
        #expect(try Self.run(["status", "--json", "--socket", raw.path]).stdout == #"{"id":1,"ok":true,"# + fields + "}\n")
    }

    @Test func eventsPrintsEachEventAsSentAndSaysWhenTheDaemonGoesAway() throws {
        let events = [
            #"{"event":"state","state":"hearing","turn":1,"muted":false,"controls":["cancel","dismiss","mute"],"wall":1763745123.456,"t":1.00}"#,
            #"{"event":"speech","phase":"end","turn":1,"wall":1763745124.567,"t":2.11}"#,
        ]
        let peer = try ScriptedDaemonPeer([.succeed(#""topics":["state","speech"],"level_hz":5"#), .push(events), .hangUp])
        let outcome = try Self.run(["events", "--topics", "state,speech", "--level-hz", "5", "--socket", peer.path])
        #expect(outcome.status == 4)
        #expect(outcome.stdout == events.map { $0 + "\n" }.joined())
        #expect(outcome.stderr.contains("closed the connection"))
        #expect(peer.linesReceived() == [#"{"id":1,"cmd":"subscribe","topics":["state","speech"],"level_hz":5}"#])
    }

    @Test func aDaemonThatDoesNotAnswerTimesOutWithStatus4() throws {
        let peer = try ScriptedDaemonPeer([.answer { _ in [] }])
        let outcome = try Self.run(["devices", "--timeout", "0.2", "--socket", peer.path])
        #expect(outcome.status == 4)
        #expect(outcome.stderr == "The Earshot daemon did not answer `devices` within 0.2 s.\n")
    }

    @Test func unknownTopicsAreAMistakeOnTheCommandLine() throws {
        let outcome = try Self.run(["events", "--topics", "state,weather", "--socket", ScriptedDaemonPeer.freshPath()])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("no topic 'weather'"))
    }
}
