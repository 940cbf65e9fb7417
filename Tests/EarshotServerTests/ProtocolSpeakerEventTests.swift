import EarshotProtocol
import Testing

/// The daemon's `speaker` events: captions of what the speaker says.
@Suite struct ProtocolSpeakerEventTests {
    @Test func aStartNamesTheVoiceAndTheSentence() {
        let event = SocketEvent.speaker(SpeakerActivity(
            phase: .start, reply: 2, voice: "breeze", text: "Okay, the \"kitchen\" lights are on.", time: 5.88
        ))
        let line = String(decoding: event.jsonLine(wall: 1_795_293_725.145722), as: UTF8.self)
        #expect(line == #"{"event":"speaker","phase":"start","reply":2,"voice":"breeze","text":"Okay, the \"kitchen\" lights are on.","wall":1795293725.145722,"t":5.88}"# + "\n")
        #expect(event.topic == .speaker)
        #expect(event.deliveryClass == .essential(.speaker))
    }

    @Test func anEndOrStopCarriesOnlyTheReply() {
        let stop = SocketEvent.speaker(SpeakerActivity(phase: .stop, reply: 1, time: 4))
        #expect(String(decoding: stop.jsonLine(wall: 1_795_293_723.261242), as: UTF8.self)
            == #"{"event":"speaker","phase":"stop","reply":1,"wall":1795293723.261242,"t":4.00}"# + "\n")
        let end = SocketEvent.speaker(SpeakerActivity(phase: .end, reply: 2, time: 8.27))
        #expect(String(decoding: end.jsonLine(wall: 1_795_293_727.535774), as: UTF8.self)
            == #"{"event":"speaker","phase":"end","reply":2,"wall":1795293727.535774,"t":8.27}"# + "\n")
    }
}
