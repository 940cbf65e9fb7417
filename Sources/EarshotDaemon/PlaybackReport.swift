/// What the speech player tells the turn machine about a reply.
enum PlaybackReport: Equatable, Sendable {
    case started(reply: Int)
    /// A sentence of the reply begins: its first audio was queued (the first one with `started`).
    case saying(reply: Int, voice: String, text: String, first: Bool)
    /// The reply was silenced before its end.
    case stopped(reply: Int)
    case finished(reply: Int)
    case failed(reply: Int, message: String)
}
