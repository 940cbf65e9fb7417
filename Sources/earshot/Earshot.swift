import ArgumentParser

@main
struct Earshot: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "earshot",
        abstract: "Earshot: hands-free voice mode for the Linux desktop.",
        subcommands: [
            VADCommand.self, VADEvalCommand.self, ReplayCommand.self, RecordCommand.self,
            StatusCommand.self, StartCommand.self, DismissCommand.self, StopCommand.self, CancelCommand.self,
            MuteCommand.self, UnmuteCommand.self, DevicesCommand.self, SetSourceCommand.self, SetSinkCommand.self,
            SayCommand.self, VoicesCommand.self, SetVoiceCommand.self, PreviewCommand.self,
            EventsCommand.self, WatchCommand.self, ConfigCommand.self, ForgetCommand.self, OpenCommand.self,
            HoldCommand.self, ReleaseCommand.self, TalkCommand.self, ToggleCommand.self, MCPCommand.self, DictateCommand.self,
            WakeCommand.self,
        ]
    )
}
