import EarshotBase
import FoundationEssentials

/// A directory of WAV files with frame-level speech labels, laid out like the VAD dev set:
/// `manifest.csv` (columns `file`, `noise`, `snr_db`, and `labels` or `scene`) and one
/// `<scene>.json` per scene whose `frames` string has one `0`/`1` per 10 ms frame.
public struct LabelledSpeechSet: Sendable {
    /// One WAV file of the set with its labels.
    public struct Recording: Sendable {
        public var file: String
        public var path: String
        /// Noise type, `clean` for none.
        public var noise: String
        /// Signal-to-noise ratio in dB, nil for clean recordings.
        public var snrDB: Int?
        /// One entry per 10 ms frame, true for speech.
        public var labels: [Bool]

        public init(file: String, path: String, noise: String, snrDB: Int?, labels: [Bool]) {
            self.file = file
            self.path = path
            self.noise = noise
            self.snrDB = snrDB
            self.labels = labels
        }

        /// The SNR column this recording is scored in: e.g. `10 dB`, or without an SNR the noise
        /// type (`clean` for clean recordings).
        public var condition: String { snrDB.map { "\($0) dB" } ?? noise }
    }

    /// Why a directory could not be read as a labelled set.
    public struct LoadError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    public var directory: String
    public var recordings: [Recording]

    /// Reads the manifest and labels in `directory` (audio is read later, one file at a time).
    public init(directory: String) throws(LoadError) {
        self.directory = directory
        let base = URL(fileURLWithPath: directory)
        let manifestPath = base.appendingPathComponent("manifest.csv").path
        guard let manifest = try? String(contentsOfFile: manifestPath, encoding: .utf8) else {
            throw LoadError(description: "\(directory): no readable manifest.csv (expected a labelled set laid out like vad-dev)")
        }
        let rows = manifest.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = rows.first, let fileColumn = header.firstIndex(of: "file"),
              let noiseColumn = header.firstIndex(of: "noise") else {
            throw LoadError(description: "\(manifestPath): the header needs at least the columns file and noise")
        }
        let snrColumn = header.firstIndex(of: "snr_db")
        let labelsColumn = header.firstIndex(of: "labels")
        let sceneColumn = header.firstIndex(of: "scene")
        guard labelsColumn != nil || sceneColumn != nil else {
            throw LoadError(description: "\(manifestPath): the header needs a labels or scene column")
        }
        var labelCache: [String: [Bool]] = [:]
        var recordings: [Recording] = []
        for (line, row) in rows.dropFirst().enumerated() where !row.allSatisfy(\.isEmpty) {
            func field(_ column: Int?) -> String? {
                guard let column, column < row.count else { return nil }
                let value = row[column].drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()
                return value.isEmpty ? nil : String(value)
            }
            guard let file = field(fileColumn), let noise = field(noiseColumn) else {
                throw LoadError(description: "\(manifestPath):\(line + 2): missing file or noise")
            }
            guard let labelFile = field(labelsColumn) ?? field(sceneColumn).map({ $0 + ".json" }) else {
                throw LoadError(description: "\(manifestPath):\(line + 2): no labels file for \(file)")
            }
            let snr = field(snrColumn).flatMap { Double($0) }.map { Int($0.rounded()) }
            let labels: [Bool]
            if let cached = labelCache[labelFile] {
                labels = cached
            } else {
                labels = try Self.readFrameLabels(base.appendingPathComponent(labelFile).path)
                labelCache[labelFile] = labels
            }
            recordings.append(Recording(
                file: file, path: base.appendingPathComponent(file).path,
                noise: noise, snrDB: noise == "clean" ? nil : snr, labels: labels
            ))
        }
        guard !recordings.isEmpty else { throw LoadError(description: "\(manifestPath): lists no recordings") }
        self.recordings = recordings
    }

    private static func readFrameLabels(_ path: String) throws(LoadError) -> [Bool] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadError(description: "\(path): labels file missing or unreadable")
        }
        guard let object = try? JSONParser.parse(data), let frames = object["frames"]?.stringValue else {
            throw LoadError(description: "\(path): not a JSON object with a \"frames\" string")
        }
        var labels: [Bool] = []
        labels.reserveCapacity(frames.utf8.count)
        for character in frames.utf8 {
            switch character {
            case UInt8(ascii: "1"): labels.append(true)
            case UInt8(ascii: "0"): labels.append(false)
            default: throw LoadError(description: "\(path): \"frames\" may only contain 0 and 1")
            }
        }
        return labels
    }
}
