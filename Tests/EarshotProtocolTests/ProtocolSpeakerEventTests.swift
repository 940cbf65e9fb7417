import EarshotProtocol
import Testing

/// `speaker` events: the daemon's captions of what the speaker says, and a scripted replay's
/// account of a reply's audio.
@Suite struct ProtocolSpeakerEventTests {
    @Test func aStartNamesTheVoiceAndTheSentence() {
        let event = SocketEvent.speaker(SpeakerEvent(
            phase: .start, reply: 2, voice: "breeze", text: "Okay, the \"kitchen\" lights are on.", time: 5.88
        ))
        let line = String(decoding: event.jsonLine(wall: 1_795_293_725.145722), as: UTF8.self)
        #expect(line == #"{"event":"speaker","phase":"start","reply":2,"voice":"breeze","text":"Okay, the \"kitchen\" lights are on.","wall":1795293725.145722,"t":5.88}"# + "\n")
        #expect(event.topic == .speaker)
    }

    @Test func aScriptedReplaysStartHasTheLengthAndTheOthersThePosition() {
        let start = SocketEvent.speaker(SpeakerEvent(
            phase: .start, reply: 1, turn: 1, voice: "cove", duration: 9.49, text: "Tomorrow will be sunny.", time: 3.51
        ))
        #expect(String(decoding: start.jsonLine(), as: UTF8.self)
            == #"{"event":"speaker","phase":"start","reply":1,"turn":1,"voice":"cove","duration":9.49,"text":"Tomorrow will be sunny.","t":3.51}"# + "\n")
        let stop = SocketEvent.speaker(SpeakerEvent(phase: .stop, reply: 2, position: 1.5, time: 7))
        #expect(String(decoding: stop.jsonLine(), as: UTF8.self)
            == #"{"event":"speaker","phase":"stop","reply":2,"position":1.50,"t":7.00}"# + "\n")
    }

    @Test func anEndOrStopCarriesOnlyTheReply() {
        let stop = SocketEvent.speaker(SpeakerEvent(phase: .stop, reply: 1, time: 4))
        #expect(String(decoding: stop.jsonLine(wall: 1_795_293_723.261242), as: UTF8.self)
            == #"{"event":"speaker","phase":"stop","reply":1,"wall":1795293723.261242,"t":4.00}"# + "\n")
        let end = SocketEvent.speaker(SpeakerEvent(phase: .end, reply: 2, time: 8.27))
        #expect(String(decoding: end.jsonLine(wall: 1_795_293_727.535774), as: UTF8.self)
            == #"{"event":"speaker","phase":"end","reply":2,"wall":1795293727.535774,"t":8.27}"# + "\n")
    }
}
