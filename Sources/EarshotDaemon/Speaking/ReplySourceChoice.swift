import EarshotConversation
import EarshotEngines
import EarshotSpeech
import Logging

extension EarshotDaemon {
    /// What answers final transcripts: the assistant when `[assistant] server` is set, else the
    /// responder command, else nothing (front ends answer with `speak`). With both set, the log
    /// says at start which one answers.
    static func replySource(_ configuration: DaemonConfiguration, logger: Logger) -> (any ReplySource)? {
        let responder = configuration.responder.map { Responder(command: $0, timeout: configuration.responderTimeout) }
        guard let assistant = configuration.assistant?.makeAssistant() else { return responder }
        if let responder {
            logger.notice("Both [assistant] server and [replies] responder are set: the \(assistant.name) answers; the \(responder.name) is not used.")
        } else {
            logger.info("Replies come from the \(assistant.name).")
        }
        return assistant
    }
}
