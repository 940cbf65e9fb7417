/// Why an audio file could not be read or written, with the file it concerns.
public struct AudioFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Problem: Equatable, Sendable {
        case unreadable(String)
        case unwritable(String)
        case empty
        case notRIFF
        case truncated(String)
        case corrupt(String)
        case unsupported(String)
    }

    public var path: String
    public var problem: Problem

    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    public var description: String {
        switch problem {
        case .unreadable(let why): "\(path): cannot read the file: \(why)"
        case .unwritable(let why): "\(path): cannot write the file: \(why)"
        case .empty: "\(path): the file is empty"
        case .notRIFF: "\(path): not a WAV file (no RIFF/WAVE header)"
        case .truncated(let what): "\(path): the file is truncated: \(what)"
        case .corrupt(let what): "\(path): the file is corrupt: \(what)"
        case .unsupported(let what): "\(path): unsupported audio format: \(what)"
        }
    }
}
