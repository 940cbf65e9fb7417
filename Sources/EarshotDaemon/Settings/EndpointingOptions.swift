public import ArgumentParser
public import EarshotAudio

/// Endpointer settings shared by the commands that run the pipeline. Each is nil when not
/// given, so `earshotd` can tell a flag from its configuration file's value.
public struct EndpointingOptions: ParsableArguments {
    public init() {}

    @Option(help: "Audio before the speech onset that belongs to the utterance, in ms (default: 300).")
    public var prefixPaddingMs: Int?

    @Option(help: "Speech needed before an onset counts as an utterance, in ms (default: 150).")
    public var minSpeechMs: Int?

    @Option(help: "Silence that ends the turn where nothing in how it ended is sure, in ms (default: 600).")
    public var endSilenceMs: Int?

    @Option(help: "Silence that ends a turn whose words and sound say it is finished, in ms (default: 250).")
    public var finishedSilenceMs: Int?

    @Option(help: "Silence that ends a turn whose words so far cannot end a sentence (\"to\", \"the\"), in ms (default: 1400).")
    public var maxEndSilenceMs: Int?

    @Option(help: "How soon a turn that sounded finished ends: low, medium or high (default: medium).")
    public var eagerness: String?

    public func validate() throws {
        for (name, value) in [("--prefix-padding-ms", prefixPaddingMs), ("--min-speech-ms", minSpeechMs), ("--end-silence-ms", endSilenceMs),
            ("--finished-silence-ms", finishedSilenceMs), ("--max-end-silence-ms", maxEndSilenceMs)]
        where value.map({ !(0...60_000).contains($0) }) ?? false {
            throw ValidationError("\(name) must be between 0 and 60000 (got \(value ?? 0)).")
        }
        if let eagerness, Endpointer.Eagerness(rawValue: eagerness) == nil {
            throw ValidationError("--eagerness must be low, medium or high (got \(eagerness)).")
        }
    }

    /// The given values, the defaults for the rest.
    public var configuration: Endpointer.Configuration {
        let defaults = Endpointer.Configuration()
        return Endpointer.Configuration(
            prefixPaddingMilliseconds: prefixPaddingMs ?? defaults.prefixPaddingMilliseconds,
            minimumSpeechMilliseconds: minSpeechMs ?? defaults.minimumSpeechMilliseconds,
            endOfTurnSilenceMilliseconds: endSilenceMs ?? defaults.endOfTurnSilenceMilliseconds,
            finishedTurnSilenceMilliseconds: finishedSilenceMs ?? defaults.finishedTurnSilenceMilliseconds,
            maximumEndSilenceMilliseconds: maxEndSilenceMs ?? defaults.maximumEndSilenceMilliseconds,
            eagerness: eagerness.flatMap(Endpointer.Eagerness.init(rawValue:)) ?? defaults.eagerness
        )
    }
}
