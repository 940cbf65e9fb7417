import EarshotEngines
import EarshotSpeech
import Testing

/// Audio flows both ways as it is made: captured chunks go out before the utterance ends, and
/// synthesized chunks come back before the synthesis ends.
@Suite struct WyomingClientStreamingTests {
    let voice = Voice(
        id: "test", displayName: "Test", summary: "", language: "en-US",
        wyoming: Voice.Wyoming(voice: "fake-voice", speaker: "p225")
    )

    @Test func audioChunksAreSentWhileTheUtteranceIsStillBeingCaptured() async throws {
        let fake = try FakeWyomingServer.answering(info: WyomingTestInfo.speechToText(), answer: [WyomingTranscript(text: "done").event])
        let audio = UtteranceAudio()
        let transcriber = WyomingTranscriber(endpoint: fake.endpoint)
        let transcription = Task { try await transcriber.transcribe(audio, language: "en", partial: { _ in }) }
        var delays: [Duration] = []
        // Each chunk must reach the server before the next is captured: a client that waited for
        // the end of the utterance would never get past the first.
        for index in 0..<5 {
            let appended = ContinuousClock.now
            audio.append([Int16](repeating: Int16(index), count: 320))
            let arrived = await fake.waitUntil { server in
                server.received.count { $0.event.type == WyomingAudioChunk.eventType } == index + 1
            }
            #expect(arrived, "chunk \(index) did not reach the server while the utterance went on")
            guard arrived else { break }
            delays.append(ContinuousClock.now - appended)
        }
        let ended = ContinuousClock.now
        audio.finish()
        #expect(try await transcription.value == "done")
        let chunks = fake.received.filter { $0.event.type == WyomingAudioChunk.eventType }
        #expect(chunks.count == 5)
        #expect(chunks.allSatisfy { $0.at < ended })
        for (index, chunk) in chunks.enumerated() {
            #expect(WyomingPCM.samples(chunk.event.payload, channels: 1) == [Int16](repeating: Int16(index), count: 320))
        }
        print("Wyoming STT client: capture-to-server delay per chunk \(delays.map { "\($0.milliseconds) ms" })")
    }

    @Test func synthesizedAudioArrivesChunkByChunkInTheRequestedVoice() async throws {
        let format = WyomingAudioFormat(rate: 22_050, width: 2, channels: 1)
        let audio = [WyomingAudioStart(format: format).event]
            + (0..<4).map { WyomingAudioChunk(format: format, audio: WyomingPCM.bytes([Int16](repeating: Int16($0), count: 1024))).event }
            + [WyomingAudioStop().event]
        let fake = try FakeWyomingServer.answering(info: WyomingTestInfo.textToSpeech(streaming: false), answer: audio)
        var chunks: [SpeechChunk] = []
        for try await chunk in WyomingSynthesizer(endpoint: fake.endpoint).synthesize("Hello.", voice: voice) {
            chunks.append(chunk)
        }
        #expect(chunks.map(\.sampleRate) == [22_050, 22_050, 22_050, 22_050])
        #expect(chunks.map { $0.samples.first } == [0, 1, 2, 3])
        let request = try WyomingSynthesize(fake.received[1].event)
        #expect(request == WyomingSynthesize(text: "Hello.", voice: WyomingSynthesizeVoice(name: "fake-voice", speaker: "p225")))
    }

    @Test func stoppingIterationClosesTheConnection() async throws {
        let format = WyomingAudioFormat(rate: 22_050, width: 2, channels: 1)
        let long = [WyomingAudioStart(format: format).event]
            + (0..<300).map { _ in WyomingAudioChunk(format: format, audio: WyomingPCM.bytes([Int16](repeating: 1000, count: 1024))).event }
            + [WyomingAudioStop().event]
        let fake = try FakeWyomingServer { event in
            switch event.type {
            case WyomingDescribe.eventType: .events([WyomingTestInfo.textToSpeech().event])
            case WyomingSynthesize.eventType: .paced(long, interval: .milliseconds(10))
            default: .nothing
            }
        }
        var received = 0
        for try await _ in WyomingSynthesizer(endpoint: fake.endpoint).synthesize("A long story.", voice: voice) {
            received += 1
            if received == 3 { break }
        }
        let stopped = ContinuousClock.now
        #expect(received == 3)
        let closed = await fake.waitUntil(timeout: .seconds(3)) { $0.disconnection(of: 0) != nil }
        #expect(closed, "the connection stayed open after the consumer stopped")
        if let disconnected = fake.disconnection(of: 0) {
            #expect(disconnected - stopped < .seconds(1))
        }
    }
}

extension Duration {
    /// Whole milliseconds, for printing.
    var milliseconds: Int { Int(self / .milliseconds(1)) }
}
