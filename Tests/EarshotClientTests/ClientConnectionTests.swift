import EarshotBase
import EarshotClient
import EarshotProtocol
import Foundation
import Testing

/// Requests, responses and events against a scripted daemon on a real socket.
@Suite struct ClientConnectionTests {
    static let listening = #""state":{"state":"listening","turn":0,"muted":false,"controls":["dismiss","mute"]}"#
    static let stateEvent = #"{"event":"state","state":"hearing","turn":1,"muted":false,"controls":["cancel","dismiss","mute"],"wall":1763745123.456,"t":1.00}"#
    static let speechEvent = #"{"event":"speech","phase":"start","turn":1,"audio_start":0.52,"wall":1763745123.400,"t":0.82}"#

    @Test func aRequestIsOneLineWithAnIdAndGetsItsResponse() throws {
        let peer = try ScriptedDaemonPeer([.succeed(Self.listening), .succeed(#""topics":["state","level"],"level_hz":30"#)])
        let connection = try DaemonConnection.connect(path: peer.path)
        let start = try connection.request(.start)
        #expect(start.ok)
        #expect(start["state"]?["state"] == "listening")
        #expect(start["state"]?["controls"] == ["dismiss", "mute"])
        let subscribed = try connection.subscribe(to: [.state, .level], levelHz: 30)
        #expect(subscribed["level_hz"]?.integerValue == 30)
        connection.close()
        #expect(peer.linesReceived() == [
            #"{"id":1,"cmd":"start"}"#,
            #"{"id":2,"cmd":"subscribe","topics":["state","level"],"level_hz":30}"#,
        ])
    }

    @Test func eventsBeforeTheResponseAreHeldForNextEventInOrder() throws {
        let peer = try ScriptedDaemonPeer([
            .answer { request in [Self.speechEvent, Self.stateEvent, request.success(Self.listening)] },
        ])
        let connection = try DaemonConnection.connect(path: peer.path)
        let response = try connection.request(.status)
        #expect(response.id == 1)
        #expect(try connection.nextEvent(timeout: .seconds(1))?.line == Self.speechEvent)
        let state = try #require(try connection.nextEvent(timeout: .seconds(1)))
        #expect(state.kind == "state")
        #expect(state["state"] == "hearing")
        #expect(state.line == Self.stateEvent)
        #expect(try connection.nextEvent(timeout: .milliseconds(50)) == nil)
    }

    @Test func aResponseToAnotherIdIsSkipped() throws {
        let peer = try ScriptedDaemonPeer([
            .answer { request in [#"{"id":41,"ok":true}"#, request.success(#""uptime":12.5"#)] },
        ])
        let connection = try DaemonConnection.connect(path: peer.path)
        #expect(try connection.request(.status)["uptime"]?.doubleValue == 12.5)
    }

    @Test func aRefusalThrowsTheDaemonsCodeAndMessage() throws {
        let peer = try ScriptedDaemonPeer([.fail(code: "nothing_playing", message: "Nothing is playing, so there is nothing to stop.")])
        let connection = try DaemonConnection.connect(path: peer.path)
        #expect(throws: ClientError.commandFailed(
            command: "stop", code: "nothing_playing", message: "Nothing is playing, so there is nothing to stop."
        )) {
            try connection.request(.stop)
        }
    }

    @Test func aFailureWithANullIdEndsTheWaitAtOnce() throws {
        let peer = try ScriptedDaemonPeer([
            .answer { _ in [#"{"id":null,"ok":false,"error":{"code":"invalid_json","message":"Bad JSON at byte 3."}}"#] },
        ])
        let connection = try DaemonConnection.connect(path: peer.path, responseTimeout: .seconds(10))
        #expect(throws: ClientError.commandFailed(command: "status", code: "invalid_json", message: "Bad JSON at byte 3.")) {
            try connection.request(.status)
        }
    }

    @Test func theDaemonRefusingAnotherUserIsWorded() throws {
        let peer = try ScriptedDaemonPeer([
            .push([#"{"id":null,"ok":false,"error":{"code":"permission_denied","message":"This daemon belongs to another user."}}"#]),
            .hangUp,
        ])
        let connection = try DaemonConnection.connect(path: peer.path)
        #expect(throws: ClientError.socketOwnedByAnotherUser(path: peer.path)) {
            try connection.request(.status)
        }
    }

    @Test func noAnswerTimesOutWithTheRequestNamed() throws {
        let peer = try ScriptedDaemonPeer([.answer { _ in [] }])
        let connection = try DaemonConnection.connect(path: peer.path, responseTimeout: .milliseconds(200))
        let clock = ContinuousClock()
        let started = clock.now
        #expect(throws: ClientError.timedOut(waitingFor: "`status`", after: .milliseconds(200))) {
            try connection.request(.status)
        }
        let waited = started.duration(to: clock.now)
        #expect(waited >= .milliseconds(200))
        #expect(waited < .seconds(2))
    }

    @Test func aHangUpEndsTheEventStream() throws {
        let peer = try ScriptedDaemonPeer([.succeed(), .push([Self.stateEvent]), .hangUp])
        let connection = try DaemonConnection.connect(path: peer.path)
        try connection.subscribe()
        #expect(try connection.nextEvent(timeout: .seconds(2))?.kind == "state")
        #expect(throws: ClientError.connectionClosed(path: peer.path)) {
            try connection.nextEvent(timeout: .seconds(2))
        }
    }

    @Test func aHangUpDuringARequestIsConnectionClosed() throws {
        let peer = try ScriptedDaemonPeer([.answer { _ in [] }, .hangUp])
        let connection = try DaemonConnection.connect(path: peer.path)
        #expect(throws: ClientError.connectionClosed(path: peer.path)) {
            try connection.request(.devices)
        }
    }

    @Test func linesSplitAcrossWritesOrSharingOneAreCutRight() throws {
        let peer = try ScriptedDaemonPeer([
            .succeed(),
            .pushBytes(String(Self.stateEvent.prefix(30))),
            .pause(.milliseconds(50)),
            .pushBytes(String(Self.stateEvent.dropFirst(30)) + "\n" + Self.speechEvent + "\n" + Self.stateEvent + "\n"),
        ])
        let connection = try DaemonConnection.connect(path: peer.path)
        try connection.subscribe()
        #expect(try connection.nextLine(timeout: .seconds(2)) == Self.stateEvent)
        #expect(try connection.nextLine(timeout: .seconds(2)) == Self.speechEvent)
        #expect(try connection.nextLine(timeout: .seconds(2)) == Self.stateEvent)
        #expect(try connection.nextLine(timeout: .milliseconds(50)) == nil)
    }

    @Test func somethingThatIsNotJSONIsAProtocolViolation() throws {
        let peer = try ScriptedDaemonPeer([.answer { _ in ["HTTP/1.1 400 Bad Request"] }])
        let connection = try DaemonConnection.connect(path: peer.path)
        do {
            try connection.request(.status)
            Issue.record("a garbage line was taken for a response")
        } catch {
            guard case .protocolViolation(let what) = error else {
                Issue.record("expected a protocol violation, got \(error)")
                return
            }
            #expect(what.contains("not a JSON object"))
            #expect(what.contains("HTTP/1.1 400"))
        }
    }

    @Test func aClosedConnectionRefusesFurtherUse() throws {
        let peer = try ScriptedDaemonPeer([])
        let connection = try DaemonConnection.connect(path: peer.path)
        connection.close()
        #expect(throws: ClientError.connectionClosed(path: peer.path)) {
            try connection.request(.status)
        }
        #expect(peer.linesReceived() == [])
    }
}
