public import EarshotSpeech

/// The responder command is one reply source: it keeps no conversation (the command may keep
/// its own), so what was heard and `forget` are nothing to it.
extension Responder: ReplySource {
    public var name: String { "responder \(ResponderError.displayName(of: command))" }
}
