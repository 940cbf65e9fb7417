public import EarshotAudio
import EarshotBase
import Foundation

/// A directory of enrolled takes of a wake phrase, as `earshot wake enroll` writes it: the takes
/// trimmed to the phrase (`take1.wav`, `take2.wav`, …, 16 kHz mono) and `wake.json` with the
/// distance under which audio counts as the phrase (`{"threshold": 0.2}`).
public struct WakeTemplates: Sendable, Equatable {
    public static let settingsFile = "wake.json"

    public var takes: [[Float]]
    public var threshold: Float

    public init(takes: [[Float]], threshold: Float = PhraseTemplateMatcher.defaultThreshold) {
        self.takes = takes
        self.threshold = threshold
    }

    /// Reads `directory`; throws, in words, for one missing or unreadable, a take that is not a
    /// WAV file, fewer than ``WakeEnrolment/minimumTakes`` takes, or a bad `wake.json`.
    public static func load(from directory: String) throws(SpeechError) -> WakeTemplates {
        let again = "enrol the phrase again with `earshot wake enroll`"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SpeechError(.misconfigured, "the wake templates directory \(directory) does not exist: \(again) (or set [wake] templates to where it wrote them)")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.lowercased().hasSuffix(".wav") }
                .sorted { $0.compare($1, options: .numeric) == .orderedAscending }
        } catch {
            throw SpeechError(.misconfigured, "the wake templates directory \(directory) cannot be read (\(error.localizedDescription))")
        }
        guard names.count >= WakeEnrolment.minimumTakes else {
            throw SpeechError(.misconfigured, "the wake templates directory \(directory) has \(names.count) take\(names.count == 1 ? "" : "s") "
                + "of the phrase (WAV files), and at least \(WakeEnrolment.minimumTakes) are needed: \(again)")
        }
        var takes: [[Float]] = []
        for name in names {
            do {
                let clip = try WAVFile.read(directory + "/" + name)
                guard clip.duration >= WakeEnrolment.shortestPhrase / 2 else {
                    throw SpeechError(.misconfigured, "the wake template \(directory)/\(name) holds no phrase (\(clip.samples.count) samples): \(again)")
                }
                takes.append(clip.samples)
            } catch let error as AudioFileError {
                throw SpeechError(.misconfigured, "the wake template \(directory)/\(name) cannot be read: \(error.description); \(again)")
            } catch let error as SpeechError {
                throw error
            } catch {
                throw SpeechError(.misconfigured, "the wake template \(directory)/\(name) cannot be read: \(error); \(again)")
            }
        }
        var threshold = PhraseTemplateMatcher.defaultThreshold
        let settingsPath = directory + "/" + settingsFile
        if FileManager.default.fileExists(atPath: settingsPath) {
            guard let bytes = FileManager.default.contents(atPath: settingsPath), let value = try? JSONParser.parse(Array(bytes)),
                  let number = value["threshold"]?.doubleValue, number > 0, number < 2
            else {
                throw SpeechError(.misconfigured, "\(settingsPath) must be a JSON object with \"threshold\", a distance above 0 and below 2, "
                    + "such as {\"threshold\": \(PhraseTemplateMatcher.defaultThreshold)}")
            }
            threshold = Float(number)
        }
        return WakeTemplates(takes: takes, threshold: threshold)
    }

    /// Writes the takes and `wake.json` into `directory` (made if missing), in place of the takes there.
    public func save(to directory: String) throws(SpeechError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name.lowercased().hasSuffix(".wav") {
                try FileManager.default.removeItem(atPath: directory + "/" + name)
            }
            for (index, take) in takes.enumerated() {
                try WAVFile.write(AudioClip(samples: take), to: "\(directory)/take\(index + 1).wav")
            }
            var writer = JSONLineWriter()
            writer.beginObject()
            writer.key("threshold")
            writer.number(Double(threshold), decimals: 3)
            writer.endObject()
            writer.endLine()
            try Data(writer.bytes).write(to: URL(fileURLWithPath: directory + "/" + Self.settingsFile))
        } catch {
            throw SpeechError(.misconfigured, "the wake templates cannot be written to \(directory): \(error)")
        }
    }

    /// `$XDG_DATA_HOME/earshot/wake`, or `$HOME/.local/share/earshot/wake` when `XDG_DATA_HOME`
    /// is unset, empty or relative (the XDG spec says to ignore it then); nil without either. A
    /// nil `environment` means this process's.
    public static func defaultDirectory(environment: [String: String]? = nil) -> String? {
        let variables = environment ?? ProcessInfo.processInfo.environment
        if let data = variables["XDG_DATA_HOME"], data.hasPrefix("/") {
            return URL(fileURLWithPath: data).appendingPathComponent("earshot/wake").path
        }
        guard let home = variables["HOME"], !home.isEmpty else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/earshot/wake").path
    }

    /// The spotter that listens for these takes, its `wake` events saying `phrase`.
    public func makeSpotter(phrase: String) -> TemplateSpotter {
        TemplateSpotter(phrase: phrase, takes: takes, threshold: threshold)
    }
}
