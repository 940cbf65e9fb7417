import EarshotSpeech
import Testing

@Suite struct WyomingSynthesisMachineTests {
    let request = WyomingSynthesize(text: "Hello there. How are you?", voice: WyomingSynthesizeVoice(name: "fake-voice"))
    let format = WyomingAudioFormat(rate: 22_050, width: 2, channels: 1)

    func chunk(_ samples: [Int16], format: WyomingAudioFormat? = nil) -> WyomingEvent {
        let format = format ?? self.format
        return WyomingAudioChunk(format: format, audio: WyomingPCM.bytes(samples)).event
    }

    @Test func plainRequestWhenTheServerDoesNotStream() {
        var machine = WyomingSynthesisMachine(request: request)
        #expect(machine.start() == .send([WyomingDescribe().event]))
        #expect(machine.eventReceived(WyomingTestInfo.textToSpeech(streaming: false).event) == .send([request.event]))
        #expect(!machine.usesStreaming)
        #expect(machine.eventReceived(WyomingAudioStart(format: format).event) == .none)
        #expect(machine.eventReceived(chunk([1, -2, 3])) == .audio(samples: [1, -2, 3], sampleRate: 22_050))
        #expect(machine.eventReceived(WyomingAudioStop().event) == .finished)
        #expect(machine.state == .done)
    }

    @Test func streamedRequestWhenTheServerStreams() {
        var machine = WyomingSynthesisMachine(request: request)
        _ = machine.start()
        let expected = [
            WyomingSynthesizeStart(voice: request.voice).event,
            WyomingSynthesizeChunk(text: request.text).event,
            request.event,
            WyomingSynthesizeStop().event,
        ]
        #expect(machine.eventReceived(WyomingTestInfo.textToSpeech(streaming: true).event) == .send(expected))
        #expect(machine.usesStreaming)
        // One audio stream per sentence; only synthesize-stopped ends it.
        for sentence in 0..<2 {
            _ = machine.eventReceived(WyomingAudioStart(format: format).event)
            #expect(machine.eventReceived(chunk([Int16(sentence)])) == .audio(samples: [Int16(sentence)], sampleRate: 22_050))
            #expect(machine.eventReceived(WyomingAudioStop().event) == .none)
        }
        #expect(machine.eventReceived(WyomingSynthesizeStopped().event) == .finished)
    }

    @Test func framesSplitAcrossChunksAreJoined() {
        var machine = WyomingSynthesisMachine(request: request)
        _ = machine.start()
        _ = machine.eventReceived(WyomingTestInfo.textToSpeech().event)
        _ = machine.eventReceived(WyomingAudioStart(format: format).event)
        let bytes = WyomingPCM.bytes([100, -200, 300])
        #expect(machine.eventReceived(WyomingAudioChunk(format: format, audio: Array(bytes[..<3])).event) == .audio(samples: [100], sampleRate: 22_050))
        #expect(machine.eventReceived(WyomingAudioChunk(format: format, audio: Array(bytes[3...])).event) == .audio(samples: [-200, 300], sampleRate: 22_050))
    }

    @Test func stereoIsMixedDownAndTheRateComesFromAudioStart() {
        var machine = WyomingSynthesisMachine(request: request)
        _ = machine.start()
        _ = machine.eventReceived(WyomingTestInfo.textToSpeech().event)
        let stereo = WyomingAudioFormat(rate: 16_000, width: 2, channels: 2)
        _ = machine.eventReceived(WyomingAudioStart(format: stereo).event)
        #expect(machine.eventReceived(chunk([100, 300, -50, -150], format: stereo)) == .audio(samples: [200, -100], sampleRate: 16_000))
    }

    @Test func samplesWiderThan16BitsAreRefused() {
        var machine = WyomingSynthesisMachine(request: request)
        _ = machine.start()
        _ = machine.eventReceived(WyomingTestInfo.textToSpeech().event)
        let wide = WyomingAudioFormat(rate: 22_050, width: 3, channels: 1)
        _ = machine.eventReceived(WyomingAudioStart(format: wide).event)
        let action = machine.eventReceived(WyomingAudioChunk(format: wide, audio: [0, 0, 0]).event)
        #expect(action == .fail(.unusable("audio of 24-bit samples; only 16-bit audio can be played")))
        #expect(machine.state == .failed)
    }

    @Test func errorsAndEarlyClosesFail() {
        let error = WyomingErrorMessage(text: "argument of type 'NoneType' is not iterable", code: "TypeError")
        var rejected = WyomingSynthesisMachine(request: request)
        _ = rejected.start()
        _ = rejected.eventReceived(WyomingTestInfo.textToSpeech().event)
        #expect(rejected.eventReceived(error.event) == .fail(.rejected(error)))

        var closed = WyomingSynthesisMachine(request: request)
        _ = closed.start()
        _ = closed.eventReceived(WyomingTestInfo.textToSpeech().event)
        _ = closed.eventReceived(chunk([1]))
        #expect(closed.connectionClosed() == .fail(.closedEarly))

        var wrongServer = WyomingSynthesisMachine(request: request)
        _ = wrongServer.start()
        #expect(wrongServer.eventReceived(WyomingTestInfo.speechToText().event) == .fail(.notOffered("its info lists only speech-to-text")))
    }
}
