import EarshotAudio
import EarshotBase
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A directory of enrolled takes of a wake phrase, as `earshot wake enroll` writes it: the takes
/// trimmed to the phrase (`take1.wav`, `take2.wav`, …, 16 kHz mono) and `wake.json` with the
/// score under which audio counts as the phrase (`{"score": 2, "threshold": 0.08}`; see
/// ``PhraseTemplateMatcher``). Without `wake.json`, or with one lacking `score` (its threshold
/// was on the plain alignment distance, which no longer applies), the threshold follows how far
/// apart the takes lie (``PhraseTemplateMatcher/threshold(for:)``).
public struct WakeTemplates: Sendable, Equatable {
    public static let settingsFile = "wake.json"
    /// The measure `threshold` applies to: 2 is the alignment distance less the background.
    public static let scoreVersion = 2

    public var takes: [[Float]]
    public var threshold: Float

    /// A nil `threshold` follows the takes' spread (``PhraseTemplateMatcher/threshold(for:)``).
    public init(takes: [[Float]], threshold: Float? = nil) {
        self.takes = takes
        self.threshold = threshold ?? PhraseTemplateMatcher.threshold(for: takes)
    }

    /// Reads `directory`; throws, in words, for one missing or unreadable, a take that is not a
    /// WAV file, fewer than ``WakeEnrolment/minimumTakes`` takes, or a bad `wake.json`.
    public static func load(from directory: String) throws(SpeechError) -> WakeTemplates {
        let again = "enrol the phrase again with `earshot wake enroll`"
        var info = stat()
        guard stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw SpeechError(.misconfigured, "the wake templates directory \(directory) does not exist: \(again) (or set [wake] templates to where it wrote them)")
        }
        let names: [String]
        do {
            names = try Self.waveNames(in: directory).sorted(by: Self.numericOrder)
        } catch {
            throw SpeechError(.misconfigured, "the wake templates directory \(directory) cannot be read (\(String(cString: strerror(error.code)).lowercased()))")
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
        var threshold: Float?
        let settingsPath = directory + "/" + settingsFile
        if access(settingsPath, F_OK) == 0 {
            guard let text = try? TextFile.read(settingsPath, maximumBytes: 4096), let value = try? JSONParser.parse(Array(text.utf8)),
                  let number = value["threshold"]?.doubleValue, number > 0, number < 2
            else {
                throw SpeechError(.misconfigured, "\(settingsPath) must be a JSON object with \"threshold\", a score above 0 and below 2, "
                    + "such as {\"score\": \(scoreVersion), \"threshold\": 0.08}, or no wake.json for the threshold the takes' spread sets")
            }
            if let version = value["score"]?.doubleValue {
                guard version == Double(scoreVersion) else {
                    throw SpeechError(.misconfigured, "\(settingsPath) gives \"score\" \(version), and this Earshot knows only score \(scoreVersion): "
                        + "set \"score\": \(scoreVersion) with a threshold for it, or \(again)")
                }
                threshold = Float(number)
            }
        }
        return WakeTemplates(takes: takes, threshold: threshold)
    }

    /// Writes the takes and `wake.json` into `directory` (made if missing), in place of the takes there.
    public func save(to directory: String) throws(SpeechError) {
        do {
            try Self.makeDirectories(directory)
            for name in try Self.waveNames(in: directory) where unlink(directory + "/" + name) != 0 {
                throw SystemError(code: errno)
            }
            for (index, take) in takes.enumerated() {
                try WAVFile.write(AudioClip(samples: take), to: "\(directory)/take\(index + 1).wav")
            }
            var writer = JSONLineWriter()
            writer.beginObject()
            writer.key("score")
            writer.integer(Self.scoreVersion)
            writer.key("threshold")
            writer.number(Double(threshold), decimals: 3)
            writer.endObject()
            writer.endLine()
            try Self.write(writer.bytes, to: directory + "/" + Self.settingsFile)
        } catch let error as SystemError {
            throw SpeechError(.misconfigured, "the wake templates cannot be written to \(directory): \(String(cString: strerror(error.code)).lowercased())")
        } catch {
            throw SpeechError(.misconfigured, "the wake templates cannot be written to \(directory): \(error)")
        }
    }

    /// `$XDG_DATA_HOME/earshot/wake`, or `$HOME/.local/share/earshot/wake` when `XDG_DATA_HOME`
    /// is unset, empty or relative (the XDG spec says to ignore it then); nil without either. A
    /// nil `environment` means this process's.
    public static func defaultDirectory(environment: [String: String]? = nil) -> String? {
        func variable(_ name: String) -> String? {
            if let environment { return environment[name] }
            return getenv(name).map { String(cString: $0) }
        }
        if let data = variable("XDG_DATA_HOME"), data.hasPrefix("/") { return data + "/earshot/wake" }
        guard let home = variable("HOME"), !home.isEmpty else { return nil }
        return home + "/.local/share/earshot/wake"
    }

    /// An errno from a call on the templates' directory.
    struct SystemError: Error {
        var code: Int32
    }

    /// The names of the WAV files in `directory`.
    static func waveNames(in directory: String) throws(SystemError) -> [String] {
        guard let stream = opendir(directory) else { throw SystemError(code: errno) }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.lowercased().hasSuffix(".wav") { names.append(name) }
        }
        return names
    }

    /// "take2.wav" before "take10.wav": by the number in the name, then by the name.
    static func numericOrder(_ left: String, _ right: String) -> Bool {
        func number(_ name: String) -> Int? { Int(String(name.filter(\.isNumber))) }
        switch (number(left), number(right)) {
        case (let l?, let r?) where l != r: return l < r
        default: return left < right
        }
    }

    /// `mkdir -p`: each missing directory on the way to `path`, private to the user.
    static func makeDirectories(_ path: String) throws(SystemError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0, errno != EEXIST { throw SystemError(code: errno) }
        }
    }

    static func write(_ bytes: [UInt8], to path: String) throws(SystemError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SystemError(code: errno) }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw SystemError(code: errno) }
            written += count
        }
    }

    /// The spotter that listens for these takes, its `wake` events saying `phrase`.
    public func makeSpotter(phrase: String) -> TemplateSpotter {
        TemplateSpotter(phrase: phrase, takes: takes, threshold: threshold)
    }
}
