public import ArgumentParser
public import EarshotDetection

/// Endpointer settings shared by the commands that run the pipeline.
public struct EndpointingOptions: ParsableArguments {
    public init() {}

    @Option(help: "Audio before the speech onset that belongs to the utterance, in ms.")
    var prefixPaddingMs = 300

    @Option(help: "Speech needed before an onset counts as an utterance, in ms.")
    var minSpeechMs = 150

    @Option(help: "Silence that ends the turn, in ms.")
    var endSilenceMs = 600

    public func validate() throws {
        for (name, value) in [("--prefix-padding-ms", prefixPaddingMs), ("--min-speech-ms", minSpeechMs), ("--end-silence-ms", endSilenceMs)]
        where !(0...60_000).contains(value) {
            throw ValidationError("\(name) must be between 0 and 60000 (got \(value)).")
        }
    }

    public var configuration: Endpointer.Configuration {
        Endpointer.Configuration(
            prefixPaddingMilliseconds: prefixPaddingMs,
            minimumSpeechMilliseconds: minSpeechMs,
            endOfTurnSilenceMilliseconds: endSilenceMs
        )
    }
}
