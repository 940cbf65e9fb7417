import ArgumentParser
import EarshotProtocol

/// The commands a key binding runs: hold-to-talk, a one-shot turn, and voice mode on or off.
struct HoldCommand: TurnControlCommand {
    static let configuration = TurnRequest.configuration(
        "hold",
        abstract: "The talk key went down: a turn opens now and ends only at `earshot release` (bind to a key press)."
    )
    static let control = Command.hold

    @OptionGroup var daemon: DaemonOptions
}

struct ReleaseCommand: TurnControlCommand {
    static let configuration = TurnRequest.configuration(
        "release",
        abstract: "The talk key came up: the held turn ends now, without waiting for silence (bind to the key's release)."
    )
    static let control = Command.release

    @OptionGroup var daemon: DaemonOptions
}

struct TalkCommand: TurnControlCommand {
    static let configuration = TurnRequest.configuration(
        "talk",
        abstract: "Listen for one turn, then go back to what voice mode was (off, muted or on)."
    )
    static let control = Command.talk

    @OptionGroup var daemon: DaemonOptions
}

struct ToggleCommand: TurnControlCommand {
    static let configuration = TurnRequest.configuration("toggle", abstract: "Turn voice mode on if it is off, else off.")
    static let control = Command.toggle

    @OptionGroup var daemon: DaemonOptions
}
