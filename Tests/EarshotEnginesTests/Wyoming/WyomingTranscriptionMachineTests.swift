import EarshotSpeech
import Testing

@Suite struct WyomingTranscriptionMachineTests {
    let request = WyomingTranscribe(language: "en")

    func chunk(_ samples: [Int16]) -> WyomingEvent {
        WyomingAudioChunk(format: .speech, audio: WyomingPCM.bytes(samples)).event
    }

    var requestEvents: [WyomingEvent] {
        [request.event, WyomingAudioStart(format: .speech).event]
    }

    @Test func plainConversation() {
        var machine = WyomingTranscriptionMachine(request: request)
        #expect(machine.start() == .send([WyomingDescribe().event]))
        #expect(machine.state == .awaitingInfo)
        #expect(machine.isAwaitingServer)
        #expect(machine.eventReceived(WyomingTestInfo.speechToText().event) == .send(requestEvents))
        #expect(machine.state == .streaming)
        #expect(!machine.isAwaitingServer)
        #expect(machine.audioReceived([1, 2]) == .send([chunk([1, 2])]))
        #expect(machine.audioReceived([3]) == .send([chunk([3])]))
        #expect(machine.audioEnded() == .send([WyomingAudioStop().event]))
        #expect(machine.state == .awaitingTranscript)
        #expect(machine.eventReceived(WyomingTranscript(text: "hello there").event) == .final("hello there"))
        #expect(machine.state == .done)
        #expect(machine.connectionClosed() == .none)
    }

    @Test func audioBeforeTheInfoIsQueuedThenSentInOrder() {
        var machine = WyomingTranscriptionMachine(request: request)
        _ = machine.start()
        #expect(machine.audioReceived([1]) == .none)
        #expect(machine.audioReceived([2]) == .none)
        #expect(machine.eventReceived(WyomingTestInfo.speechToText().event) == .send(requestEvents + [chunk([1]), chunk([2])]))
        #expect(machine.audioReceived([3]) == .send([chunk([3])]))
    }

    @Test func audioThatEndsBeforeTheInfoIsSentWhole() {
        var machine = WyomingTranscriptionMachine(request: request)
        _ = machine.start()
        _ = machine.audioReceived([1])
        #expect(machine.audioEnded() == .none)
        #expect(machine.audioReceived([2]) == .none)
        let expected = requestEvents + [chunk([1]), WyomingAudioStop().event]
        #expect(machine.eventReceived(WyomingTestInfo.speechToText().event) == .send(expected))
        #expect(machine.state == .awaitingTranscript)
    }

    @Test func streamedTranscriptAccumulatesPartials() {
        var machine = WyomingTranscriptionMachine(request: request)
        _ = machine.start()
        _ = machine.eventReceived(WyomingTestInfo.speechToText(streaming: true).event)
        #expect(machine.eventReceived(WyomingTranscriptStart().event) == .none)
        #expect(machine.eventReceived(WyomingTranscriptChunk(text: "turn").event) == .partial("turn"))
        #expect(machine.eventReceived(WyomingTranscriptChunk(text: " on").event) == .partial("turn on"))
        _ = machine.audioEnded()
        #expect(machine.eventReceived(WyomingTranscriptChunk(text: " the lights").event) == .partial("turn on the lights"))
        #expect(machine.eventReceived(WyomingTranscript(text: "Turn on the lights.").event) == .final("Turn on the lights."))
        #expect(machine.eventReceived(WyomingTranscriptStop().event) == .none)
    }

    @Test func streamedTranscriptWithoutAFinalTranscriptEndsAtStop() {
        var machine = WyomingTranscriptionMachine(request: request)
        _ = machine.start()
        _ = machine.eventReceived(WyomingTestInfo.speechToText(streaming: true).event)
        _ = machine.audioEnded()
        _ = machine.eventReceived(WyomingTranscriptStart().event)
        _ = machine.eventReceived(WyomingTranscriptChunk(text: "ten of clubs").event)
        #expect(machine.eventReceived(WyomingTranscriptStop().event) == .final("ten of clubs"))
    }

    @Test func chunksAreIgnoredWhenTheInfoSaysNoStreaming() {
        var machine = WyomingTranscriptionMachine(request: request)
        _ = machine.start()
        _ = machine.eventReceived(WyomingTestInfo.speechToText(streaming: false).event)
        #expect(machine.eventReceived(WyomingTranscriptChunk(text: "guess").event) == .none)
        #expect(machine.eventReceived(WyomingTranscriptStop().event) == .none)
        _ = machine.audioEnded()
        #expect(machine.eventReceived(WyomingTranscript(text: "final").event) == .final("final"))
    }

    @Test func errorEventsFailTheRequestInEveryWaitingState() {
        let error = WyomingErrorMessage(text: "model not found", code: "ModelError")
        var beforeInfo = WyomingTranscriptionMachine(request: request)
        _ = beforeInfo.start()
        #expect(beforeInfo.eventReceived(error.event) == .fail(.rejected(error)))
        #expect(beforeInfo.state == .failed)
        #expect(beforeInfo.audioReceived([1]) == .none)

        var streaming = WyomingTranscriptionMachine(request: request)
        _ = streaming.start()
        _ = streaming.eventReceived(WyomingTestInfo.speechToText().event)
        #expect(streaming.eventReceived(error.event) == .fail(.rejected(error)))
        #expect(streaming.audioEnded() == .none)
    }

    @Test func closingBeforeTheTranscriptFails() {
        var machine = WyomingTranscriptionMachine(request: request)
        _ = machine.start()
        _ = machine.eventReceived(WyomingTestInfo.speechToText().event)
        _ = machine.audioEnded()
        #expect(machine.connectionClosed() == .fail(.closedEarly))
        #expect(machine.eventReceived(WyomingTranscript(text: "late").event) == .none)
    }

    @Test func aServerWithoutSpeechToTextIsNotAsked() {
        var machine = WyomingTranscriptionMachine(request: request)
        _ = machine.start()
        #expect(machine.eventReceived(WyomingTestInfo.textToSpeech().event) == .fail(.notOffered("its info lists only text-to-speech")))
    }

    @Test func malformedAnswersFailWithTheReason() {
        var machine = WyomingTranscriptionMachine(request: request)
        _ = machine.start()
        _ = machine.eventReceived(WyomingTestInfo.speechToText().event)
        let action = machine.eventReceived(WyomingEvent(type: "transcript", data: ["text": 5]))
        #expect(action == .fail(.unusable("a transcript event that cannot be read: text is a number, not a string")))
    }

    @Test func unrelatedEventsAreIgnored() {
        var machine = WyomingTranscriptionMachine(request: request)
        _ = machine.start()
        #expect(machine.eventReceived(WyomingEvent(type: "ping")) == .none)
        #expect(machine.state == .awaitingInfo)
        _ = machine.eventReceived(WyomingTestInfo.speechToText().event)
        #expect(machine.eventReceived(WyomingEvent(type: "voice-started")) == .none)
        #expect(machine.state == .streaming)
    }
}
