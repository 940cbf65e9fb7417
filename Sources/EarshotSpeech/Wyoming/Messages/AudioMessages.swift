public import EarshotBase

/// How raw PCM audio is laid out: samples a second, bytes a sample, interleaved channels.
public struct WyomingAudioFormat: Equatable, Sendable {
    /// Hertz.
    public var rate: Int
    /// Bytes a sample (2 for signed 16-bit little-endian).
    public var width: Int
    public var channels: Int

    public init(rate: Int, width: Int, channels: Int) {
        self.rate = rate
        self.width = width
        self.channels = channels
    }

    /// 16 kHz mono 16-bit: what speech-to-text servers expect.
    public static let speech = WyomingAudioFormat(rate: 16_000, width: 2, channels: 1)

    /// Bytes in one frame (one sample of every channel).
    public var bytesPerFrame: Int { width * channels }
}

extension WyomingAudioFormat {
    init(_ fields: WyomingFields) throws(WyomingMessageError) {
        self.init(rate: try fields.int("rate"), width: try fields.int("width"), channels: try fields.int("channels"))
    }

    /// The data of an audio event: the format, then the timestamp (written as null when unknown,
    /// as the reference implementation does).
    func data(timestamp: Int?) -> JSONObject {
        ["rate": .integer(rate), "width": .integer(width), "channels": .integer(channels), "timestamp": timestamp.map(JSONValue.integer) ?? .null]
    }
}

/// `audio-start`: an audio stream begins.
public struct WyomingAudioStart: WyomingMessage {
    public static let eventType = "audio-start"

    public var format: WyomingAudioFormat
    /// Milliseconds.
    public var timestamp: Int?

    public init(format: WyomingAudioFormat, timestamp: Int? = nil) {
        self.format = format
        self.timestamp = timestamp
    }

    public init(data: JSONObject, payload: [UInt8]) throws(WyomingMessageError) {
        let fields = WyomingFields(data, eventType: Self.eventType)
        self.init(format: try WyomingAudioFormat(fields), timestamp: try fields.optionalInt("timestamp"))
    }

    public var data: JSONObject { format.data(timestamp: timestamp) }
}

/// `audio-chunk`: raw PCM audio in the payload, its format in the data.
public struct WyomingAudioChunk: WyomingMessage {
    public static let eventType = "audio-chunk"

    public var format: WyomingAudioFormat
    public var audio: [UInt8]
    /// Milliseconds.
    public var timestamp: Int?

    public init(format: WyomingAudioFormat, audio: [UInt8], timestamp: Int? = nil) {
        self.format = format
        self.audio = audio
        self.timestamp = timestamp
    }

    public init(data: JSONObject, payload: [UInt8]) throws(WyomingMessageError) {
        let fields = WyomingFields(data, eventType: Self.eventType)
        self.init(format: try WyomingAudioFormat(fields), audio: payload, timestamp: try fields.optionalInt("timestamp"))
    }

    public var data: JSONObject { format.data(timestamp: timestamp) }
    public var payload: [UInt8] { audio }
}

/// `audio-stop`: the audio stream has ended.
public struct WyomingAudioStop: WyomingMessage {
    public static let eventType = "audio-stop"

    /// Milliseconds.
    public var timestamp: Int?

    public init(timestamp: Int? = nil) {
        self.timestamp = timestamp
    }

    public init(data: JSONObject, payload: [UInt8]) throws(WyomingMessageError) {
        self.init(timestamp: try WyomingFields(data, eventType: Self.eventType).optionalInt("timestamp"))
    }

    public var data: JSONObject { ["timestamp": timestamp.map(JSONValue.integer) ?? .null] }
}

/// Signed 16-bit little-endian PCM, the only sample width this client sends or plays.
public enum WyomingPCM {
    public static func bytes(_ samples: [Int16]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: samples.count * 2)
        for (index, sample) in samples.enumerated() {
            let bits = UInt16(bitPattern: sample)
            bytes[2 * index] = UInt8(truncatingIfNeeded: bits)
            bytes[2 * index + 1] = UInt8(truncatingIfNeeded: bits >> 8)
        }
        return bytes
    }

    /// Mono samples from 16-bit frames of `channels` channels, averaged; a trailing partial frame is ignored.
    public static func samples(_ bytes: some Collection<UInt8>, channels: Int) -> [Int16] {
        let bytes = Array(bytes)
        let channels = max(channels, 1)
        let frameCount = bytes.count / (2 * channels)
        var samples = [Int16](repeating: 0, count: frameCount)
        for frame in 0..<frameCount {
            var sum = 0
            for channel in 0..<channels {
                let offset = 2 * (frame * channels + channel)
                sum += Int(Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8))
            }
            samples[frame] = Int16(sum / channels)
        }
        return samples
    }
}
