import EarshotSpeech

/// Info events as servers of each kind send them.
enum WyomingTestInfo {
    static func speechToText(streaming: Bool = false) -> WyomingInfo {
        WyomingInfo(asr: [
            WyomingASRProgram(
                WyomingArtifact(name: "fake-asr"),
                models: [WyomingASRModel(WyomingArtifact(name: "fake-model"), languages: ["en"])],
                supportsTranscriptStreaming: streaming
            )
        ])
    }

    static func textToSpeech(streaming: Bool = false) -> WyomingInfo {
        WyomingInfo(tts: [
            WyomingTTSProgram(
                WyomingArtifact(name: "fake-tts"),
                voices: [WyomingTTSVoice(WyomingArtifact(name: "fake-voice"), languages: ["en"])],
                supportsSynthesizeStreaming: streaming
            )
        ])
    }
}

/// Encoding and decoding helpers shared by the codec tests.
enum WyomingTestCoding {
    /// Decodes `bytes` fed one byte at a time, the harshest split a socket can produce.
    static func decodeByteByByte(_ bytes: [UInt8], limits: WyomingFrameLimits = WyomingFrameLimits()) throws -> [WyomingEvent] {
        var decoder = WyomingFrameDecoder(limits: limits)
        var events: [WyomingEvent] = []
        for byte in bytes {
            decoder.append([byte])
            while let event = try decoder.next() { events.append(event) }
        }
        try decoder.finish()
        return events
    }

    /// Decodes `bytes` handed over in one piece.
    static func decodeAtOnce(_ bytes: [UInt8], limits: WyomingFrameLimits = WyomingFrameLimits()) throws -> [WyomingEvent] {
        var decoder = WyomingFrameDecoder(limits: limits)
        decoder.append(bytes)
        var events: [WyomingEvent] = []
        while let event = try decoder.next() { events.append(event) }
        try decoder.finish()
        return events
    }

    /// The message after a trip through the wire format, byte by byte.
    static func roundTrip<Message: WyomingMessage>(_ message: Message) throws -> Message {
        let events = try decodeByteByByte(message.event.encoded())
        guard events.count == 1 else { throw WyomingMessageError(eventType: Message.eventType, reason: "\(events.count) events came back") }
        return try Message(events[0])
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
}
