import EarshotAudio
import EarshotBase

// The requests and responses of the OpenAI audio API that Earshot uses, as its API reference
// shapes them: `POST audio/transcriptions` and `POST audio/speech`.

/// `POST audio/transcriptions`: the utterance as a WAV file in a multipart form.
public struct OpenAITranscriptionRequest: Equatable, Sendable {
    public var model: String
    /// A BCP 47 tag (`en-US`); the form carries its ISO 639-1 language (`en`), as the API asks.
    public var language: String
    /// Ask for server-sent events; servers that do not stream answer with plain JSON instead.
    public var stream: Bool

    public init(model: String, language: String, stream: Bool = true) {
        self.model = model
        self.language = language
        self.stream = stream
    }

    /// `en` of `en-US`.
    public var isoLanguage: String {
        String(language.prefix { $0 != "-" && $0 != "_" }).lowercased()
    }

    /// The form's fields, in order, with the audio as `file` (named `utterance.wav`).
    public func formFields() -> [MultipartForm.Field] {
        var fields: [MultipartForm.Field] = [
            .init(name: "model", value: model),
            .init(name: "response_format", value: "json"),
        ]
        if !isoLanguage.isEmpty { fields.append(.init(name: "language", value: isoLanguage)) }
        if stream { fields.append(.init(name: "stream", value: "true")) }
        return fields
    }

    /// The whole body: the fields and the audio, 16 kHz mono 16-bit WAV.
    public func body(samples: [Int16], sampleRate: Int, boundary: String) -> MultipartForm {
        var form = MultipartForm(boundary: boundary)
        for field in formFields() { form.append(field) }
        form.appendFile(name: "file", filename: "utterance.wav", contentType: "audio/wav",
                        bytes: WAVFile.encode(signed16: samples, sampleRate: sampleRate))
        return form
    }
}

/// A `multipart/form-data` body (RFC 7578), built in memory.
public struct MultipartForm: Sendable {
    public struct Field: Equatable, Sendable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public let boundary: String
    private var parts: [UInt8] = []

    /// `boundary` must not occur in any part: a random one of 24 or more characters does not.
    public init(boundary: String) {
        self.boundary = boundary
    }

    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    public mutating func append(_ field: Field) {
        header("Content-Disposition: form-data; name=\"\(Self.quoted(field.name))\"")
        parts += Array(field.value.utf8)
        parts += Array("\r\n".utf8)
    }

    public mutating func appendFile(name: String, filename: String, contentType: String, bytes: [UInt8]) {
        header(
            "Content-Disposition: form-data; name=\"\(Self.quoted(name))\"; filename=\"\(Self.quoted(filename))\"\r\n"
                + "Content-Type: \(contentType)"
        )
        parts += bytes
        parts += Array("\r\n".utf8)
    }

    /// The parts and the closing delimiter.
    public var bytes: [UInt8] { parts + Array("--\(boundary)--\r\n".utf8) }

    private mutating func header(_ lines: String) {
        parts += Array("--\(boundary)\r\n\(lines)\r\n\r\n".utf8)
    }

    /// Field names and file names are ours; quotes and line breaks are escaped all the same.
    private static func quoted(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("\"", with: "%22").replacing("\r", with: "%0D").replacing("\n", with: "%0A")
    }

    /// A boundary of 32 random letters and digits.
    public static func randomBoundary<Generator: RandomNumberGenerator>(using generator: inout Generator) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return "earshot-" + String((0..<32).map { _ in alphabet.randomElement(using: &generator)! })
    }
}

/// What a transcription stream's event says.
public enum OpenAITranscriptionEvent: Equatable, Sendable {
    /// `transcript.text.delta`: words to add to the running text.
    case delta(String)
    /// `transcript.text.done`: the whole transcript.
    case done(String)
    /// An `error` event, or an event whose data holds an `error` object: the server's message.
    case failed(String)
    /// Another event type (segments, usage): nothing Earshot shows.
    case other(String)

    /// Reads one server-sent event; nil when its data is not a JSON object, which no server of
    /// the API sends.
    public init?(_ event: ServerSentEvent) {
        guard let object = (try? JSONParser.parse(Array(event.data.utf8)))?.objectValue else { return nil }
        if event.type == "error" || object["error"] != nil {
            self = .failed(OpenAIErrorBody.message(in: object) ?? "an error event without a message")
            return
        }
        switch object["type"]?.stringValue {
        case "transcript.text.delta":
            guard let delta = object["delta"]?.stringValue else { return nil }
            self = .delta(delta)
        case "transcript.text.done":
            guard let text = object["text"]?.stringValue else { return nil }
            self = .done(text)
        case let type:
            self = .other(type ?? "")
        }
    }
}

/// `{"text": "…"}`: a transcription answered without streaming.
public enum OpenAITranscriptionResponse {
    /// The transcript in a JSON answer, or nil when the body is no such object.
    public static func text(in body: [UInt8]) -> String? {
        (try? JSONParser.parse(body))?["text"]?.stringValue
    }
}

/// `POST audio/speech`: JSON, answered with raw audio (`pcm`: signed 16-bit little-endian mono,
/// 24 kHz at OpenAI and the servers that follow it).
public struct OpenAISpeechRequest: Equatable, Sendable {
    public var model: String
    public var voice: String
    public var input: String
    /// 0.25 to 4; nil leaves the server's default (1).
    public var speed: Double?

    public init(model: String, voice: String, input: String, speed: Double? = nil) {
        self.model = model
        self.voice = voice
        self.input = input
        self.speed = speed
    }

    public var body: [UInt8] {
        var object = JSONObject([
            ("model", .string(model)), ("voice", .string(voice)), ("input", .string(input)),
            ("response_format", .string("pcm")),
        ])
        if let speed { object.append("speed", .number(speed, decimals: 2)) }
        var bytes: [UInt8] = []
        JSONValue.object(object).write(to: &bytes)
        return bytes
    }
}

/// Turns a `pcm` body, cut anywhere, into samples: an odd byte waits for its partner.
public struct PCM16Decoder: Sendable {
    private var heldByte: UInt8?

    public init() {}

    public mutating func decode(_ bytes: some Collection<UInt8>) -> [Int16] {
        var samples: [Int16] = []
        samples.reserveCapacity((bytes.count + 1) / 2)
        for byte in bytes {
            if let low = heldByte {
                samples.append(Int16(bitPattern: UInt16(low) | UInt16(byte) << 8))
                heldByte = nil
            } else {
                heldByte = byte
            }
        }
        return samples
    }

    /// Whether half a sample is left over: a body that ended mid-sample.
    public var isMidSample: Bool { heldByte != nil }
}

/// The message in an API error body: `{"error": {"message": "…"}}` (OpenAI, speaches), or
/// `{"error": "…"}` and `{"detail": "…"}` (some compatible servers).
public enum OpenAIErrorBody {
    public static func message(in body: [UInt8]) -> String? {
        guard let object = (try? JSONParser.parse(body))?.objectValue else {
            let text = String(decoding: body.prefix(300), as: UTF8.self).trimmingWhitespace
            return text.isEmpty || text.hasPrefix("<") ? nil : text
        }
        return message(in: object)
    }

    static func message(in object: JSONObject) -> String? {
        if let error = object["error"] {
            if let text = error.stringValue { return text }
            if let text = error["message"]?.stringValue { return text }
        }
        if let detail = object["detail"]?.stringValue { return detail }
        return object["message"]?.stringValue
    }
}

/// The `Retry-After` header: a number of seconds, or an HTTP date.
public enum RetryAfter {
    /// How long to wait, or nil when the header says nothing usable; a date in the past is 0.
    /// `now` is the current time in seconds since 1970, for dates.
    public static func delay(_ header: String, now: Double) -> Duration? {
        let text = header.trimmingWhitespace
        if let seconds = Double(text), seconds >= 0, seconds.isFinite { return .milliseconds(Int64(seconds * 1000)) }
        guard let date = HTTPDate.seconds(text) else { return nil }
        return .milliseconds(Int64(max(0, Double(date) - now) * 1000))
    }
}

/// IMF-fixdate, the HTTP date format: `Sun, 06 Nov 1994 08:49:37 GMT`.
enum HTTPDate {
    static func seconds(_ text: String) -> Int? {
        let fields = text.split(separator: " ")
        guard fields.count == 6, fields[5] == "GMT", let day = Int(fields[1]), let year = Int(fields[3]),
              let month = months.firstIndex(of: String(fields[2])) else { return nil }
        let clock = fields[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (1...31).contains(day), year >= 1970 else { return nil }
        return daysSince1970(year: year, month: month + 1, day: day) * 86_400 + clock[0] * 3600 + clock[1] * 60 + clock[2]
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Days from 1970-01-01 to the date (Howard Hinnant's days_from_civil).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

extension String {
    /// Without leading and trailing whitespace (no Foundation here).
    package var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
