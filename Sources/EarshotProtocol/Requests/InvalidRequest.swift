public import EarshotJSON

/// A line that is not a request the daemon can run: the error to answer with, and the `id` to
/// echo (`null` unless the line was an object with one).
public struct InvalidRequest: Error, Hashable, Sendable {
    public var id: JSONValue
    public var error: ProtocolError

    public init(id: JSONValue = .null, error: ProtocolError) {
        self.id = id
        self.error = error
    }

    /// The response that answers the line.
    public var response: Response {
        Response(id: id, result: .failure(error))
    }
}
