import Foundation

/// `earshot-bench demo` (`make demo`): the whole conversation on a machine with no sound card.
/// A private PulseAudio stands in for the desktop's sound server; a recorded person talks into
/// its virtual microphone; `earshotd` listens with the embedded backends and answers through a
/// small responder script; what it says is recorded from the speaker. Everything it started is
/// stopped and removed at the end.
enum DemoCommand {
    static func run(_ arguments: [String]) {
        if arguments.contains("--help") || arguments.contains("-h") {
            print("""
                usage: earshot-bench demo [RECORDING] [RESPONDER]
                  Plays RECORDING (default \(DemoRun.defaultRecording)) into a private PulseAudio's
                  virtual microphone while earshotd listens, answering with RESPONDER
                  (default \(DemoRun.defaultResponder)), and prints the conversation as it happens.
                """)
            return
        }
        let recording = arguments.first ?? DemoRun.defaultRecording
        let responder = arguments.dropFirst().first ?? DemoRun.defaultResponder
        do {
            try DemoRun(recording: recording, responder: responder).run()
        } catch {
            FileHandle.standardError.write(Data("earshot-bench demo: \(error)\n".utf8))
            exit(1)
        }
    }
}
