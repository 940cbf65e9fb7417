import ArgumentParser
import EarshotClient
import EarshotProtocol
import Foundation

struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Subscribe to the daemon's events and print them as JSON lines as they arrive.",
        discussion: """
            Each line is an event exactly as the daemon sent it (PROTOCOL.md), e.g. \
            {"event":"state","state":"listening","turn":0,"muted":false,"controls":["dismiss","mute"],"wall":1763745123.456,"t":0.00}. \
            Runs until Ctrl-C, or until the daemon goes away: then it says so and exits with \
            status 4. Status 3: the daemon is not running.
            """
    )

    @OptionGroup var daemon: DaemonOptions

    @Option(
        help: ArgumentHelp(
            "The kinds of event to receive, comma-separated: state, speech, transcript, speaker, level, error, device, config, wake (default: all).",
            valueName: "topics"
        ),
        transform: EventsCommand.parseTopics
    )
    var topics: [EventTopic] = EventTopic.allCases

    @Option(help: "Level events per second, 1 to 60 (default: the daemon's, 30).")
    var levelHz: Int?

    func validate() throws {
        if let levelHz, !(1...60).contains(levelHz) {
            throw ValidationError("--level-hz must be between 1 and 60 (got \(levelHz)).")
        }
    }

    func run() throws {
        try daemon.withConnection { connection throws(ClientError) in
            try connection.subscribe(to: topics, levelHz: levelHz)
            while true {
                guard let event = try connection.nextEvent(timeout: nil) else { continue }
                guard ConsoleOutput.line(event.line) else { return }  // The reader went away (`| head`).
            }
        }
    }

    static func parseTopics(_ text: String) throws -> [EventTopic] {
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !names.isEmpty else { throw ValidationError("--topics needs at least one topic.") }
        return try names.map { name in
            guard let topic = EventTopic(rawValue: name) else {
                let known = EventTopic.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("--topics: no topic '\(name)'; the topics are \(known).")
            }
            return topic
        }
    }
}
