public import EarshotProtocol

/// `describe`: asks the server for its ``WyomingInfo``.
public struct WyomingDescribe: WyomingMessage {
    public static let eventType = "describe"

    public init() {}

    public init(data: JSONObject, payload: [UInt8]) {}

    public var data: JSONObject { [:] }
}
