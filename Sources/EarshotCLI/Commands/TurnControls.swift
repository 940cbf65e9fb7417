import ArgumentParser
import EarshotClient
import EarshotProtocol

/// What `start`, `dismiss`, `stop`, `cancel`, `mute` and `unmute` share: send the command, print
/// the state it led to in one line.
enum TurnRequest {
    static let discussion = """
        Prints the resulting state in one line, e.g. \
        `listening · turn 0 · microphone on · controls: dismiss, mute`. \
        Exit status: 0 done, 1 the daemon refused (its reason is printed), 3 the daemon is not \
        running, 4 it could not be talked to.
        """

    static func run(_ command: Command, _ daemon: DaemonOptions) throws {
        let response = try daemon.withConnection { connection throws(ClientError) in try connection.request(command) }
        ConsoleOutput.line(StateSummary.line(response.state))
    }
}

struct StartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start",
        abstract: "Turn voice mode on: open the microphone and listen.",
        discussion: TurnRequest.discussion
    )

    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        try TurnRequest.run(.start, daemon)
    }
}

struct DismissCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dismiss",
        abstract: "Turn voice mode off (the red X): stop whatever is happening and close the microphone.",
        discussion: TurnRequest.discussion
    )

    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        try TurnRequest.run(.dismiss, daemon)
    }
}

struct StopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stop",
        abstract: "Stop the reply that is playing (the white square).",
        discussion: TurnRequest.discussion
    )

    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        try TurnRequest.run(.stop, daemon)
    }
}

struct CancelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Cancel the turn being heard or thought about.",
        discussion: TurnRequest.discussion
    )

    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        try TurnRequest.run(.cancel, daemon)
    }
}

struct MuteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mute",
        abstract: "Mute the microphone; voice mode stays on.",
        discussion: TurnRequest.discussion
    )

    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        try TurnRequest.run(.mute, daemon)
    }
}

struct UnmuteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unmute",
        abstract: "Unmute the microphone.",
        discussion: TurnRequest.discussion
    )

    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        try TurnRequest.run(.unmute, daemon)
    }
}
