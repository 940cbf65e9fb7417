public import EarshotJSON

/// What running a command gave: the result keys of a success, or the error of a failure.
public enum CommandResult: Hashable, Sendable {
    /// Succeeded; `fields` follow `"id"` and `"ok":true` in the response, in order.
    case success(JSONObject)
    case failure(ProtocolError)
}
