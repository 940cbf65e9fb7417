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

    static func configuration(_ name: String, abstract: String) -> CommandConfiguration {
        CommandConfiguration(commandName: name, abstract: abstract, discussion: discussion)
    }
}

/// A command that sends one voice-UI control and prints the state it led to.
protocol TurnControlCommand: ParsableCommand {
    static var control: Command { get }
    var daemon: DaemonOptions { get }
}

extension TurnControlCommand {
    func run() throws {
        try TurnRequest.run(Self.control, daemon)
    }
}

struct StartCommand: TurnControlCommand {
    static let configuration = TurnRequest.configuration("start", abstract: "Turn voice mode on: open the microphone and listen.")
    static let control = Command.start

    @OptionGroup var daemon: DaemonOptions
}

struct DismissCommand: TurnControlCommand {
    static let configuration = TurnRequest.configuration("dismiss", abstract: "Turn voice mode off (the red X): stop whatever is happening and close the microphone.")
    static let control = Command.dismiss

    @OptionGroup var daemon: DaemonOptions
}

struct StopCommand: TurnControlCommand {
    static let configuration = TurnRequest.configuration("stop", abstract: "Stop the reply that is playing (the white square).")
    static let control = Command.stop

    @OptionGroup var daemon: DaemonOptions
}

struct CancelCommand: TurnControlCommand {
    static let configuration = TurnRequest.configuration("cancel", abstract: "Cancel the turn being heard or thought about.")
    static let control = Command.cancel

    @OptionGroup var daemon: DaemonOptions
}

struct MuteCommand: TurnControlCommand {
    static let configuration = TurnRequest.configuration("mute", abstract: "Mute the microphone; voice mode stays on.")
    static let control = Command.mute

    @OptionGroup var daemon: DaemonOptions
}

struct UnmuteCommand: TurnControlCommand {
    static let configuration = TurnRequest.configuration("unmute", abstract: "Unmute the microphone.")
    static let control = Command.unmute

    @OptionGroup var daemon: DaemonOptions
}
