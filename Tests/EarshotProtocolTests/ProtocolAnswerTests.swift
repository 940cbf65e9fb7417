import EarshotBase
import EarshotProtocol
import Testing

/// Each command's answer is a type with its one encoding: the keys PROTOCOL.md's table of
/// commands gives, in order, after `"id"` and `"ok":true`.
@Suite struct ProtocolAnswerTests {
    private func line(_ answer: some CommandAnswer) -> String {
        String(decoding: Response(id: 1, result: .answer(answer)).jsonLine(), as: UTF8.self)
    }

    static let listening = VoiceState(phase: .listening, turn: 2, muted: false, controls: [.dismiss, .mute])

    @Test func theTurnCommandsAnswerTheState() {
        #expect(line(StateAnswer(state: Self.listening))
            == #"{"id":1,"ok":true,"state":{"state":"listening","turn":2,"muted":false,"controls":["dismiss","mute"]}}"# + "\n")
    }

    @Test func devicesListsBothKindsAndTheOnesInUse() {
        let answer = DeviceListAnswer(
            sources: [
                .init(name: "mic", description: "Built-in Microphone", isDefault: true, isMonitor: false),
                .init(name: "speakers.monitor", description: "Monitor of Speakers", isDefault: false, isMonitor: true),
            ],
            sinks: [.init(name: "speakers", description: "Speakers", isDefault: true, isMonitor: false)],
            source: "mic", sink: nil
        )
        #expect(line(answer) == #"{"id":1,"ok":true,"sources":[{"name":"mic","description":"Built-in Microphone","default":true,"monitor":false},"#
            + #"{"name":"speakers.monitor","description":"Monitor of Speakers","default":false,"monitor":true}],"#
            + #""sinks":[{"name":"speakers","description":"Speakers","default":true,"monitor":false}],"source":"mic","sink":null}"# + "\n")
    }

    @Test func aRouteAnswerNamesItsDirection() {
        #expect(line(RouteAnswer(direction: .source, inUse: "mic", followsDefault: true))
            == #"{"id":1,"ok":true,"source":"mic","following_default":true}"# + "\n")
        #expect(line(RouteAnswer(direction: .sink, inUse: "hdmi", followsDefault: false))
            == #"{"id":1,"ok":true,"sink":"hdmi","following_default":false}"# + "\n")
    }

    @Test func theVoicesAnswersMarkTheCurrentOne() {
        let voices = VoiceListAnswer(voices: [
            .init(id: "breeze", name: "Breeze", description: "Calm.", language: "en-US", isCurrent: true),
            .init(id: "cove", name: "Cove", description: "Low.", language: "en-GB", isCurrent: false),
        ])
        #expect(line(voices) == #"{"id":1,"ok":true,"voices":[{"id":"breeze","name":"Breeze","description":"Calm.","language":"en-US","current":true},"#
            + #"{"id":"cove","name":"Cove","description":"Low.","language":"en-GB","current":false}]}"# + "\n")
        #expect(line(VoiceAnswer(voice: "cove")) == #"{"id":1,"ok":true,"voice":"cove"}"# + "\n")
        #expect(line(PreviewAnswer(voice: "cove", state: Self.listening))
            == #"{"id":1,"ok":true,"voice":"cove","state":{"state":"listening","turn":2,"muted":false,"controls":["dismiss","mute"]}}"# + "\n")
    }

    @Test func forgetSaysWhatWentAndFromWhere() {
        #expect(line(ForgetAnswer(deleted: 4, turns: 2, directory: "/home/ada/.local/state/earshot/recordings"))
            == #"{"id":1,"ok":true,"deleted":4,"turns":2,"directory":"/home/ada/.local/state/earshot/recordings"}"# + "\n")
    }

    @Test func statusIsAnAnswerWithItsOwnEncoding() {
        let status = ProtocolStatusTests.status
        #expect(CommandResult.answer(status) == .success(status.fields))
    }

    @Test func theServersOwnCommandsAnswerWithTheirKeys() {
        #expect(line(SubscriptionAnswer(topics: [.level, .state], levelHz: 10))
            == #"{"id":1,"ok":true,"topics":["state","level"],"level_hz":10}"# + "\n")
        #expect(line(UnsubscribeAnswer()) == #"{"id":1,"ok":true}"# + "\n")
        #expect(line(ClaimAnswer(holder: "agent one")) == #"{"id":1,"ok":true,"holder":"agent one"}"# + "\n")
        #expect(line(UnclaimAnswer(released: false)) == #"{"id":1,"ok":true,"released":false}"# + "\n")
    }
}
