public import EarshotProtocol

/// `transcript-stop`: a streamed transcript is complete.
public struct WyomingTranscriptStop: WyomingMessage {
    public static let eventType = "transcript-stop"

    public init() {}

    public init(data: JSONObject, payload: [UInt8]) {}

    public var data: JSONObject { [:] }
}
