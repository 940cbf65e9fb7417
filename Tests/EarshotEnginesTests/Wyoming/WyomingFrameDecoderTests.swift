import EarshotProtocol
import EarshotSpeech
import Testing

@Suite struct WyomingFrameDecoderTests {
    /// Bytes exactly as wyoming 1.10.2 writes them (from the notes' capture).
    static let pythonAudioChunk: [UInt8] =
        WyomingTestCoding.bytes(#"{"type": "audio-chunk", "version": "1.10.2", "data_length": 61, "payload_length": 4}"#)
        + [0x0A]
        + WyomingTestCoding.bytes(#"{"rate": 16000, "width": 2, "channels": 1, "timestamp": null}"#)
        + [1, 2, 3, 4]

    @Test func decodesThePythonWireFormatByteByByte() throws {
        let stream = Self.pythonAudioChunk
            + WyomingTestCoding.bytes(#"{"type": "transcript", "version": "1.10.2", "data_length": 56}"#) + [0x0A]
            + WyomingTestCoding.bytes(#"{"text": "turn on the kitchen lights", "language": "en"}"#)
        let events = try WyomingTestCoding.decodeByteByByte(stream)
        #expect(events.map(\.type) == ["audio-chunk", "transcript"])
        #expect(events[0].payload == [1, 2, 3, 4])
        #expect(events[0].version == "1.10.2")
        #expect(events[0].data["rate"] == 16000)
        #expect(events[0].data["timestamp"] == .null)
        #expect(try WyomingTranscript(events[1]) == WyomingTranscript(text: "turn on the kitchen lights", language: "en"))
    }

    @Test func everySplitPointGivesTheSameEvents() throws {
        let stream = Self.pythonAudioChunk + WyomingDescribe().event.encoded() + Self.pythonAudioChunk
        let whole = try WyomingTestCoding.decodeAtOnce(stream)
        #expect(whole.count == 3)
        for split in 0...stream.count {
            var decoder = WyomingFrameDecoder()
            var events: [WyomingEvent] = []
            decoder.append(stream[..<split])
            while let event = try decoder.next() { events.append(event) }
            decoder.append(stream[split...])
            while let event = try decoder.next() { events.append(event) }
            try decoder.finish()
            #expect(events == whole, "split at \(split)")
        }
    }

    @Test func acceptsInlineDataAndMergesTheBlockOverIt() throws {
        let inline = try WyomingTestCoding.decodeByteByByte(
            WyomingTestCoding.bytes(#"{"type":"transcript","data":{"text":"inline","language":"en"}}"# + "\n")
        )
        #expect(try WyomingTranscript(inline[0]) == WyomingTranscript(text: "inline", language: "en"))

        let block = #"{"text":"from the block"}"#
        let both = try WyomingTestCoding.decodeByteByByte(
            WyomingTestCoding.bytes(#"{"type":"transcript","data":{"text":"inline","language":"en"},"data_length":\#(block.utf8.count)}"# + "\n" + block)
        )
        #expect(try WyomingTranscript(both[0]) == WyomingTranscript(text: "from the block", language: "en"))
    }

    @Test func encoderWritesDataInItsOwnBlockAndOmitsZeroLengths() throws {
        let describe = String(decoding: WyomingDescribe().event.encoded(), as: UTF8.self)
        #expect(describe == #"{"type":"describe","version":"1.10.2"}"# + "\n")

        let chunk = WyomingAudioChunk(format: .speech, audio: [9, 8]).event.encoded()
        let text = String(decoding: chunk, as: UTF8.self)
        #expect(text.hasPrefix(#"{"type":"audio-chunk","version":"1.10.2","data_length":54,"payload_length":2}"# + "\n"))
        #expect(Array(chunk.suffix(2)) == [9, 8])
        #expect(text.contains(#"{"rate":16000,"width":2,"channels":1,"timestamp":null}"#))
    }

    @Test func skipsBlankLinesBetweenEvents() throws {
        let events = try WyomingTestCoding.decodeAtOnce(WyomingTestCoding.bytes("\n\r\n") + WyomingDescribe().event.encoded() + [0x0A])
        #expect(events.map(\.type) == ["describe"])
    }

    @Test func refusesAHeaderLineOverTheLimitBeforeItsNewline() throws {
        let limits = WyomingFrameLimits(maximumHeaderLength: 100)
        var decoder = WyomingFrameDecoder(limits: limits)
        decoder.append(Array(repeating: UInt8(ascii: " "), count: 100))
        #expect(try decoder.next() == nil)
        decoder.append([UInt8(ascii: " ")])
        #expect(throws: WyomingDecodingError.headerTooLong(limit: 100)) { try decoder.next() }
        // The stream cannot be resynchronised: the error sticks.
        decoder.append(WyomingDescribe().event.encoded())
        #expect(throws: WyomingDecodingError.headerTooLong(limit: 100)) { try decoder.next() }
    }

    @Test func refusesALongHeaderLineArrivingWithItsNewline() throws {
        let line = #"{"type":"transcript","data":{"text":"\#(String(repeating: "a", count: 200))"}}"# + "\n"
        #expect(throws: WyomingDecodingError.headerTooLong(limit: 100)) {
            try WyomingTestCoding.decodeAtOnce(WyomingTestCoding.bytes(line), limits: WyomingFrameLimits(maximumHeaderLength: 100))
        }
    }

    @Test func refusesOversizedDataAndPayloadFromTheHeaderAlone() throws {
        let limits = WyomingFrameLimits(maximumDataLength: 1000, maximumPayloadLength: 5000)
        #expect(throws: WyomingDecodingError.dataTooLarge(length: 1001, limit: 1000)) {
            try WyomingTestCoding.decodeAtOnce(WyomingTestCoding.bytes(#"{"type":"info","data_length":1001}"# + "\n"), limits: limits)
        }
        #expect(throws: WyomingDecodingError.payloadTooLarge(length: 5001, limit: 5000)) {
            try WyomingTestCoding.decodeAtOnce(WyomingTestCoding.bytes(#"{"type":"audio-chunk","payload_length":5001}"# + "\n"), limits: limits)
        }
    }

    @Test func reportsAStreamThatEndsInsideAnEvent() throws {
        let whole = Self.pythonAudioChunk
        for cut in [10, whole.count - 30, whole.count - 1] {
            var decoder = WyomingFrameDecoder()
            decoder.append(whole[..<cut])
            #expect(try decoder.next() == nil)
            let error = #expect(throws: WyomingDecodingError.self) { try decoder.finish() }
            guard case .truncated? = error else {
                Issue.record("cut at \(cut): \(String(describing: error))")
                continue
            }
        }
        var complete = WyomingFrameDecoder()
        complete.append(whole)
        #expect(try complete.next()?.type == "audio-chunk")
        try complete.finish()
    }

    @Test(arguments: [
        (#"not json"#, "invalid header"),
        (#"[1,2]"#, "not an object"),
        (#"{"data":{}}"#, "no type"),
        (#"{"type":"x","data_length":-1}"#, "negative length"),
        (#"{"type":"x","payload_length":"ten"}"#, "length as a string"),
        (#"{"type":"x","data":[1]}"#, "data not an object"),
    ])
    func refusesMalformedHeaders(line: String, label: String) throws {
        #expect(throws: WyomingDecodingError.self, "\(label)") {
            try WyomingTestCoding.decodeAtOnce(WyomingTestCoding.bytes(line + "\n"))
        }
    }

    @Test func refusesADataBlockThatIsNotAJSONObject() throws {
        let broken = WyomingTestCoding.bytes(#"{"type":"transcript","data_length":5}"# + "\n" + #"{"tex"#)
        #expect(throws: WyomingDecodingError.self) { try WyomingTestCoding.decodeAtOnce(broken) }
        let array = WyomingTestCoding.bytes(#"{"type":"transcript","data_length":8}"# + "\n" + #"["text"]"#)
        #expect(throws: WyomingDecodingError.invalidData(eventType: "transcript", reason: "it is an array")) {
            try WyomingTestCoding.decodeAtOnce(array)
        }
    }
}
