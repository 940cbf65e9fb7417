import EarshotAudio
import EarshotBase
import EarshotSpeech
import Testing

@Suite struct OpenAIEndpointTests {
    @Test(arguments: [
        ("openai+http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1", 8000),
        ("openai+http://localhost:8880/v1/", "http://localhost:8880/v1", 8880),
        ("openai+https://api.openai.com/v1", "https://api.openai.com/v1", 443),
        ("OpenAI+HTTP://[::1]:9000", "http://[::1]:9000", 9000),
        ("openai+http://host", "http://host", 80),
    ])
    func parsesTheBaseURL(_ text: String, _ baseURL: String, _ port: Int) throws {
        let endpoint = try OpenAIEndpoint(parsing: text)
        #expect(endpoint.baseURL == baseURL)
        #expect(endpoint.port == port)
        #expect(endpoint.description == "openai+" + baseURL)
        #expect(endpoint.url(of: "audio/speech") == baseURL + "/audio/speech")
    }

    @Test(arguments: [
        ("openai+ftp://host/v1", "the scheme must be http or https"),
        ("openai+http://:80/v1", "it has no host"),
        ("openai+http://host:0/v1", "the port must be a number from 1 to 65535"),
        ("openai+http://host:99999", "the port must be a number from 1 to 65535"),
        ("openai+http://user:secret@host/v1", "it holds credentials; give the API key with OPENAI_API_KEY or api_key_file instead"),
        ("openai+http://host/v1?key=1", "it has a query or fragment; give the base URL only, such as http://localhost:8000/v1"),
        ("openai+host:8000", "it has no :// after the scheme"),
        ("openai+http://[::1/v1", "the IPv6 host has no closing ]"),
    ])
    func refusesInWords(_ text: String, _ reason: String) {
        #expect(throws: OpenAIEndpointError(text, reason)) { try OpenAIEndpoint(parsing: text) }
    }

    @Test func errorSaysWhatToWrite() {
        let error = OpenAIEndpointError("openai+ftp://x", "the scheme must be http or https")
        #expect(error.description == "\"openai+ftp://x\" is not an OpenAI-compatible server address (the scheme must be http or https): use openai+http://HOST:PORT/v1 or openai+https://HOST/v1")
    }
}

@Suite struct ServerSentEventReaderTests {
    @Test func readsEventsCutAnywhere() throws {
        let body = Array("data: {\"a\":1}\r\n\r\n: a comment\nevent: error\ndata: one\ndata:two\nid: 7\n\ndata: three\r\r".utf8)
        let whole = try readAll([body])
        #expect(whole == [
            ServerSentEvent(data: "{\"a\":1}"),
            ServerSentEvent(type: "error", data: "one\ntwo", id: "7"),
            ServerSentEvent(data: "three", id: "7"),
        ])
        // Every cut, including between a CR and its LF, reads the same events.
        for cut in 1..<body.count {
            #expect(try readAll([Array(body[..<cut]), Array(body[cut...])]) == whole, "cut at \(cut)")
        }
    }

    @Test func dropsAnEventWithoutDataOrWithoutItsBlankLine() throws {
        var reader = ServerSentEventReader()
        #expect(try reader.read(Array("event: ping\n\ndata: unfinished".utf8)).isEmpty)
        reader.finish()
        #expect(try reader.read(Array("data: next\n\n".utf8)) == [ServerSentEvent(data: "next")])
    }

    @Test func ignoresALeadingByteOrderMark() throws {
        #expect(try readAll([[0xEF, 0xBB, 0xBF] + Array("data: x\n\n".utf8)]) == [ServerSentEvent(data: "x")])
    }

    @Test func anEndlessEventFailsInsteadOfGrowing() throws {
        var reader = ServerSentEventReader(maximumEventBytes: 100)
        #expect(throws: ServerSentEventError.eventTooLarge(100)) {
            _ = try reader.read(Array(repeating: UInt8(ascii: "a"), count: 101))
        }
        var lines = ServerSentEventReader(maximumEventBytes: 100)
        #expect(throws: ServerSentEventError.eventTooLarge(100)) {
            _ = try lines.read(Array(String(repeating: "data: aaaaaaaaaa\n", count: 10).utf8))
        }
    }

    private func readAll(_ pieces: [[UInt8]]) throws -> [ServerSentEvent] {
        var reader = ServerSentEventReader()
        var events: [ServerSentEvent] = []
        for piece in pieces { events += try reader.read(piece) }
        return events
    }
}

@Suite struct OpenAIMessageTests {
    @Test func transcriptionEventsAsTheAPIReferenceShapesThem() {
        #expect(OpenAITranscriptionEvent(ServerSentEvent(data: #"{"type":"transcript.text.delta","delta":" hello"}"#)) == .delta(" hello"))
        #expect(OpenAITranscriptionEvent(ServerSentEvent(data: #"{"type":"transcript.text.done","text":"hello there","usage":{"type":"tokens"}}"#)) == .done("hello there"))
        #expect(OpenAITranscriptionEvent(ServerSentEvent(type: "error", data: #"{"error":{"message":"boom"}}"#)) == .failed("boom"))
        #expect(OpenAITranscriptionEvent(ServerSentEvent(data: #"{"type":"transcript.text.segment","text":"x"}"#)) == .other("transcript.text.segment"))
        #expect(OpenAITranscriptionEvent(ServerSentEvent(data: "[DONE]")) == nil)
        #expect(OpenAITranscriptionEvent(ServerSentEvent(data: #"{"type":"transcript.text.delta"}"#)) == nil)
    }

    @Test func transcriptionFormCarriesTheUtteranceAsWAV() throws {
        let request = OpenAITranscriptionRequest(model: "whisper-1", language: "en-US")
        let samples: [Int16] = [0, 1, -1, .max, .min]
        let form = request.body(samples: samples, sampleRate: 16_000, boundary: "BOUNDARY")
        #expect(form.contentType == "multipart/form-data; boundary=BOUNDARY")
        let text = String(decoding: form.bytes, as: UTF8.self)
        #expect(text.hasPrefix("--BOUNDARY\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\nwhisper-1\r\n"))
        #expect(text.contains("name=\"language\"\r\n\r\nen\r\n"))
        #expect(text.contains("name=\"stream\"\r\n\r\ntrue\r\n"))
        #expect(text.contains("name=\"response_format\"\r\n\r\njson\r\n"))
        #expect(text.contains("name=\"file\"; filename=\"utterance.wav\"\r\nContent-Type: audio/wav\r\n\r\nRIFF"))
        #expect(text.hasSuffix("\r\n--BOUNDARY--\r\n"))
        let wav = WAVFile.encode(signed16: samples, sampleRate: 16_000)
        #expect(wav.count == 44 + 10)
        let format = try WAVFile.format(of: wav, path: "utterance.wav")
        #expect(format.frameCount == 5)
        #expect(format.format.sampleRate == 16_000)
        #expect(Array(wav.suffix(10)) == [0, 0, 1, 0, 0xFF, 0xFF, 0xFF, 0x7F, 0x00, 0x80])
    }

    @Test func speechRequestAsksForPCM() throws {
        let body = OpenAISpeechRequest(model: "tts-1", voice: "nova", input: "Hi \"you\"", speed: 1.25).body
        let object = try JSONParser.parse(body)
        #expect(object["model"]?.stringValue == "tts-1")
        #expect(object["voice"]?.stringValue == "nova")
        #expect(object["input"]?.stringValue == "Hi \"you\"")
        #expect(object["response_format"]?.stringValue == "pcm")
        #expect(object["speed"]?.doubleValue == 1.25)
    }

    @Test func pcmCutMidSampleKeepsTheHalf() {
        var decoder = PCM16Decoder()
        #expect(decoder.decode([0x01, 0x02, 0x03]) == [0x0201])
        #expect(decoder.isMidSample)
        #expect(decoder.decode([0x80, 0xFF, 0xFF]) == [Int16(bitPattern: 0x8003), -1])
        #expect(!decoder.isMidSample)
        #expect(decoder.decode([0xFE]) == [])
        #expect(decoder.decode([0xFF]) == [-2])
    }

    @Test func errorBodiesOfTheServersPeopleRun() {
        #expect(OpenAIErrorBody.message(in: Array(#"{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}"#.utf8)) == "Incorrect API key provided")
        #expect(OpenAIErrorBody.message(in: Array(#"{"detail":"Model not found"}"#.utf8)) == "Model not found")
        #expect(OpenAIErrorBody.message(in: Array(#"{"error":"bad audio"}"#.utf8)) == "bad audio")
        #expect(OpenAIErrorBody.message(in: Array("upstream timed out".utf8)) == "upstream timed out")
        #expect(OpenAIErrorBody.message(in: Array("<html>502</html>".utf8)) == nil)
        #expect(OpenAIErrorBody.message(in: []) == nil)
    }

    @Test func retryAfterInSecondsOrAsADate() {
        #expect(RetryAfter.delay("2", now: 0) == .seconds(2))
        #expect(RetryAfter.delay(" 0.5 ", now: 0) == .milliseconds(500))
        // 1994-11-06 08:49:37 UTC is 784111777 s after 1970.
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:49:37 GMT", now: 784_111_770) == .seconds(7))
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:49:37 GMT", now: 784_111_790) == .zero)
        #expect(RetryAfter.delay("soon", now: 0) == nil)
        #expect(RetryAfter.delay("-3", now: 0) == nil)
    }
}

@Suite struct OpenAIFailureTests {
    let endpoint = try! OpenAIEndpoint(parsing: "openai+http://127.0.0.1:8000/v1")

    @Test func everyFailureNamesTheServerAndWhatToDo() {
        let rows: [(OpenAIFailure, SpeechError.Kind, String)] = [
            (.status(401, message: "Incorrect API key provided.", retryAfter: nil), .misconfigured,
             "The OpenAI-compatible speech-to-text server at http://127.0.0.1:8000/v1 refused the API key (401 Unauthorized: Incorrect API key provided.). Set OPENAI_API_KEY or [transcription] api_key_file to a key it accepts."),
            (.status(403, message: nil, retryAfter: nil), .misconfigured,
             "The OpenAI-compatible speech-to-text server at http://127.0.0.1:8000/v1 refused access (403 Forbidden). The API key may not be allowed this model."),
            (.status(404, message: "Not Found", retryAfter: nil), .misconfigured,
             "The OpenAI-compatible speech-to-text server at http://127.0.0.1:8000/v1 has no /audio/transcriptions (404 Not Found: Not Found). Check the address ends with the API's base path, such as /v1."),
            (.status(429, message: "Rate limit reached", retryAfter: .seconds(2)), .unavailable,
             "The OpenAI-compatible speech-to-text server at http://127.0.0.1:8000/v1 asked to slow down (429 Too Many Requests: Rate limit reached)."),
            (.status(503, message: nil, retryAfter: nil), .unavailable,
             "The OpenAI-compatible speech-to-text server at http://127.0.0.1:8000/v1 failed (503 Service Unavailable)."),
            (.status(400, message: "bad audio", retryAfter: nil), .rejected,
             "The OpenAI-compatible speech-to-text server at http://127.0.0.1:8000/v1 refused the request (400 Bad Request: bad audio)."),
            (.unreachable("connection refused"), .unavailable,
             "The OpenAI-compatible speech-to-text server at http://127.0.0.1:8000/v1 is not answering (connection refused)."),
            (.timedOut(awaiting: "the transcript", .milliseconds(1500)), .timedOut,
             "The OpenAI-compatible speech-to-text server at http://127.0.0.1:8000/v1 did not answer within 1.5 s (waiting for the transcript)."),
        ]
        for (failure, kind, message) in rows {
            let error = failure.speechError(.speechToText, endpoint: endpoint)
            #expect(error.kind == kind, "\(failure)")
            #expect(error.message == message)
        }
    }

    @Test func retryAfterIsCarriedAndCapped() {
        let asked = OpenAIFailure.status(429, message: nil, retryAfter: .seconds(2)).speechError(.textToSpeech, endpoint: endpoint)
        #expect(asked.retryAfter == .seconds(2))
        #expect(asked.isRetryable)
        let long = OpenAIFailure.status(503, message: nil, retryAfter: .seconds(3600)).speechError(.textToSpeech, endpoint: endpoint)
        #expect(long.retryAfter == OpenAIFailure.longestRetryAfter)
        #expect(OpenAIFailure.status(401, message: nil, retryAfter: nil).speechError(.textToSpeech, endpoint: endpoint).message
            .contains("[speech] api_key_file"))
    }
}
