/// What the speech player tells the turn machine about a reply.
enum PlaybackReport: Equatable, Sendable {
    case started(reply: Int)
    case finished(reply: Int)
    case failed(reply: Int, message: String)
}
