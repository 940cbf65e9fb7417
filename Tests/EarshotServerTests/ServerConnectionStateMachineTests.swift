import EarshotProtocol
import Testing

@testable import EarshotServer

@Suite struct ServerConnectionStateMachineTests {
    private func opened() -> ConnectionStateMachine {
        var machine = ConnectionStateMachine(maximumLineLength: 100, maximumPendingLines: 3)
        _ = machine.peerChecked(sameUser: true)
        return machine
    }

    private func line(_ text: String) -> InboundLine {
        .line(Array(text.utf8))
    }

    @Test func readsNothingUntilThePeerIsChecked() {
        var machine = ConnectionStateMachine(maximumLineLength: 100)
        #expect(machine.readRequested() == .none)
        #expect(machine.peerChecked(sameUser: true) == .read)
    }

    @Test func refusesAnotherUser() {
        var machine = ConnectionStateMachine(maximumLineLength: 100)
        #expect(machine.readRequested() == .none)
        guard case .refuse(let response) = machine.peerChecked(sameUser: false) else {
            Issue.record("expected a refusal")
            return
        }
        #expect(response.id == .null)
        #expect(response.result == .failure(.permissionDenied))
        #expect(machine.lineReceived(line(#"{"cmd":"status"}"#)) == .none)
        #expect(machine.phase == .closed)
    }

    @Test func answersInRequestOrderOneCommandAtATime() {
        var machine = opened()
        #expect(machine.lineReceived(line(#"{"id":1,"cmd":"status"}"#)) == .runCommand(.status))
        #expect(machine.lineReceived(line("nonsense")) == .none)
        #expect(machine.lineReceived(.tooLong) == .none)
        #expect(machine.commandFinished(.success(["uptime": 1])) == .respond(Response(id: 1, result: .success(["uptime": 1]))))
        guard case .respond(let second) = machine.nextAction() else {
            Issue.record("expected the invalid line's response")
            return
        }
        #expect(second.id == .null)
        if case .failure(let error) = second.result { #expect(error.code == "invalid_json") }
        #expect(machine.nextAction() == .respond(InvalidRequest(error: .lineTooLong(limit: 100)).response))
        #expect(machine.nextAction() == .none)
    }

    @Test func answersSubscriptionsItself() {
        var machine = opened()
        let subscription = Subscription(topics: [.level], levelHz: 20)
        #expect(
            machine.lineReceived(line(#"{"id":"s","cmd":"subscribe","topics":["level"],"level_hz":20}"#))
                == .subscribe(subscription, Response(id: "s", result: .success(["topics": ["level"], "level_hz": 20])))
        )
        #expect(machine.lineReceived(line(#"{"id":"u","cmd":"unsubscribe"}"#)) == .unsubscribe(Response(id: "u", result: .success([:]))))
    }

    @Test func holdsAnswersAndReadsWhileOutputIsBackedUp() {
        var machine = opened()
        #expect(machine.writabilityChanged(isWritable: false) == .none)
        #expect(machine.lineReceived(line(#"{"id":1,"cmd":"mute"}"#)) == .none)
        #expect(machine.readRequested() == .none)
        #expect(machine.writabilityChanged(isWritable: true) == .runCommand(.mute))
        #expect(machine.nextAction() == .read)
    }

    @Test func stopsReadingWhenTooManyLinesWait() {
        var machine = opened()
        #expect(machine.lineReceived(line(#"{"id":0,"cmd":"status"}"#)) == .runCommand(.status))
        for id in 1...3 { #expect(machine.lineReceived(line(#"{"id":\#(id),"cmd":"status"}"#)) == .none) }
        #expect(machine.readRequested() == .none)
        #expect(machine.commandFinished(.success([:])) == .respond(Response(id: 0, result: .success([:]))))
        #expect(machine.nextAction() == .runCommand(.status))
        #expect(machine.nextAction() == .read)
    }

    @Test func closesOnceAClientThatStoppedSendingHasItsAnswers() {
        var machine = opened()
        #expect(machine.lineReceived(line(#"{"id":1,"cmd":"status"}"#)) == .runCommand(.status))
        #expect(machine.inputEnded() == .none)
        #expect(machine.commandFinished(.success([:])) == .respond(Response(id: 1, result: .success([:]))))
        #expect(machine.nextAction() == .closeAfterWrites)
        #expect(machine.nextAction() == .none)
    }

    @Test func keepsASubscriberThatStoppedSending() {
        var machine = opened()
        guard case .subscribe = machine.lineReceived(line(#"{"cmd":"subscribe"}"#)) else {
            Issue.record("expected a subscription")
            return
        }
        #expect(machine.inputEnded() == .none)
        #expect(machine.phase == .open)
    }
}
