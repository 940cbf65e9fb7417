public import EarshotProtocol

/// `synthesize-stop`: the streamed text is complete.
public struct WyomingSynthesizeStop: WyomingMessage {
    public static let eventType = "synthesize-stop"

    public init() {}

    public init(data: JSONObject, payload: [UInt8]) {}

    public var data: JSONObject { [:] }
}
