public import EarshotProtocol

/// `synthesize-stopped`: the server has sent all the audio of a streamed synthesis.
public struct WyomingSynthesizeStopped: WyomingMessage {
    public static let eventType = "synthesize-stopped"

    public init() {}

    public init(data: JSONObject, payload: [UInt8]) {}

    public var data: JSONObject { [:] }
}
