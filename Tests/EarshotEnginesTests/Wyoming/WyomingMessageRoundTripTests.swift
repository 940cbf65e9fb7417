import EarshotProtocol
import EarshotSpeech
import Testing

/// Every message through the wire format and back, byte by byte.
@Suite struct WyomingMessageRoundTripTests {
    @Test func describe() throws {
        #expect(try WyomingTestCoding.roundTrip(WyomingDescribe()) == WyomingDescribe())
    }

    @Test func info() throws {
        let info = WyomingInfo(
            asr: [
                WyomingASRProgram(
                    WyomingArtifact(name: "faster-whisper", description: "Whisper", attribution: WyomingAttribution(name: "Guillaume", url: "https://example.org"), version: "2.0"),
                    models: [WyomingASRModel(WyomingArtifact(name: "tiny-int8", installed: false), languages: ["en", "fr"])],
                    supportsTranscriptStreaming: true
                )
            ],
            tts: [
                WyomingTTSProgram(
                    WyomingArtifact(name: "piper"),
                    voices: [
                        WyomingTTSVoice(WyomingArtifact(name: "en_US-lessac-medium"), languages: ["en_US"]),
                        WyomingTTSVoice(WyomingArtifact(name: "en_US-libritts-high"), languages: ["en_US"], speakers: ["p225", "p226"]),
                    ],
                    supportsSynthesizeStreaming: true
                )
            ]
        )
        let back = try WyomingTestCoding.roundTrip(info)
        #expect(back == info)
        #expect(back.supportsTranscriptStreaming && back.supportsSynthesizeStreaming)
    }

    @Test func infoAsTheOVOSServerSendsIt() throws {
        let data = #"{"asr": [{"name": "ovos-stt-plugin-pocketsphinx", "attribution": {"name": "OpenVoiceOS", "url": "https://github.com/OpenVoiceOS/ovos-plugin-manager"}, "installed": true, "description": "STT via OpenVoiceOS plugins", "version": "0.2.0", "models": [{"name": "ovos-stt-plugin-pocketsphinx", "attribution": {"name": "OpenVoiceOS", "url": "https://github.com/OpenVoiceOS/ovos-plugin-manager"}, "installed": true, "description": "OVOS STT Plugin: ovos-stt-plugin-pocketsphinx", "version": "0.2.0", "languages": ["en-us"]}], "supports_transcript_streaming": false, "requires_external_vad": true}], "tts": [], "handle": [], "intent": [], "wake": [], "mic": [], "snd": []}"#
        let events = try WyomingTestCoding.decodeAtOnce(
            WyomingTestCoding.bytes(#"{"type": "info", "version": "1.10.2", "data_length": \#(data.utf8.count)}"# + "\n" + data)
        )
        let info = try WyomingInfo(events[0])
        #expect(info.asr.map(\.artifact.name) == ["ovos-stt-plugin-pocketsphinx"])
        #expect(info.asr.first?.models.first?.languages == ["en-us"])
        #expect(info.asr.first?.artifact.attribution.name == "OpenVoiceOS")
        #expect(!info.supportsTranscriptStreaming)
        #expect(info.tts.isEmpty)
    }

    @Test func transcribe() throws {
        #expect(try WyomingTestCoding.roundTrip(WyomingTranscribe(language: "en", name: "tiny")) == WyomingTranscribe(language: "en", name: "tiny"))
        #expect(try WyomingTestCoding.roundTrip(WyomingTranscribe()) == WyomingTranscribe())
        #expect(WyomingTranscribe().event.data.isEmpty)
    }

    @Test func audioStart() throws {
        let start = WyomingAudioStart(format: WyomingAudioFormat(rate: 22_050, width: 2, channels: 1), timestamp: 0)
        #expect(try WyomingTestCoding.roundTrip(start) == start)
    }

    @Test func audioChunk() throws {
        let chunk = WyomingAudioChunk(format: .speech, audio: WyomingPCM.bytes([0, 1, -1, .max, .min]), timestamp: 120)
        let back = try WyomingTestCoding.roundTrip(chunk)
        #expect(back == chunk)
        #expect(WyomingPCM.samples(back.audio, channels: 1) == [0, 1, -1, .max, .min])
    }

    @Test func audioStop() throws {
        #expect(try WyomingTestCoding.roundTrip(WyomingAudioStop(timestamp: 2862)) == WyomingAudioStop(timestamp: 2862))
        #expect(try WyomingTestCoding.roundTrip(WyomingAudioStop()) == WyomingAudioStop())
    }

    @Test func transcript() throws {
        let transcript = WyomingTranscript(text: "Turn on the \"kitchen\" lights ☕️\n", language: "en")
        #expect(try WyomingTestCoding.roundTrip(transcript) == transcript)
    }

    @Test func transcriptStreaming() throws {
        #expect(try WyomingTestCoding.roundTrip(WyomingTranscriptStart(language: "de")) == WyomingTranscriptStart(language: "de"))
        #expect(try WyomingTestCoding.roundTrip(WyomingTranscriptChunk(text: " lights")) == WyomingTranscriptChunk(text: " lights"))
        #expect(try WyomingTestCoding.roundTrip(WyomingTranscriptStop()) == WyomingTranscriptStop())
    }

    @Test func synthesize() throws {
        let synthesize = WyomingSynthesize(text: "Hello.", voice: WyomingSynthesizeVoice(name: "en_US-libritts-high", speaker: "p225"))
        #expect(try WyomingTestCoding.roundTrip(synthesize) == synthesize)
        #expect(try WyomingTestCoding.roundTrip(WyomingSynthesize(text: "Plain")) == WyomingSynthesize(text: "Plain"))
    }

    @Test func synthesizeStreaming() throws {
        let start = WyomingSynthesizeStart(voice: WyomingSynthesizeVoice(language: "en"))
        #expect(try WyomingTestCoding.roundTrip(start) == start)
        #expect(try WyomingTestCoding.roundTrip(WyomingSynthesizeChunk(text: "One. ")) == WyomingSynthesizeChunk(text: "One. "))
        #expect(try WyomingTestCoding.roundTrip(WyomingSynthesizeStop()) == WyomingSynthesizeStop())
        #expect(try WyomingTestCoding.roundTrip(WyomingSynthesizeStopped()) == WyomingSynthesizeStopped())
    }

    @Test func error() throws {
        let error = WyomingErrorMessage(text: "Voice not found: en_US-lessac", code: "VoiceNotFoundError")
        #expect(try WyomingTestCoding.roundTrip(error) == error)
    }

    @Test func readingTheWrongTypeOrAMissingFieldSaysWhich() throws {
        let wrongType = #expect(throws: WyomingMessageError.self) { try WyomingTranscript(WyomingDescribe().event) }
        #expect(wrongType?.reason == "the event is of type describe")
        let missing = #expect(throws: WyomingMessageError.self) { try WyomingTranscript(WyomingEvent(type: "transcript")) }
        #expect(missing?.description == "a transcript event that cannot be read: text is missing")
        let nested = #expect(throws: WyomingMessageError.self) {
            try WyomingInfo(WyomingEvent(type: "info", data: ["asr": [["name": "x", "models": [["languages": ["en"]]]]]]))
        }
        #expect(nested?.reason == "asr[0].models[0].name is missing")
        let badRate = #expect(throws: WyomingMessageError.self) {
            try WyomingAudioStart(WyomingEvent(type: "audio-start", data: ["rate": "fast", "width": 2, "channels": 1]))
        }
        #expect(badRate?.reason == "rate is a string, not a number")
    }
}
