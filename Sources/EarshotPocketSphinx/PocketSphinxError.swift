/// Why pocketsphinx could not start or decode, in words a person can act on.
public enum PocketSphinxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A part of the model is missing or unreadable.
    case modelMissing(PocketSphinxModel.Part, path: String)
    /// The files are there but pocketsphinx refused them (a corrupt or mismatched model).
    case modelRejected(PocketSphinxModel)
    /// A decoding call failed; says which.
    case decodingFailed(String)

    public var description: String {
        switch self {
        case let .modelMissing(part, path):
            "pocketsphinx could not load its \(part.rawValue) at \(path): install pocketsphinx-en-us"
        case let .modelRejected(model):
            "pocketsphinx could not load the model at \(model.acousticModel) with \(model.languageModel) and "
                + "\(model.dictionary): the files may be damaged or not belong together; reinstall pocketsphinx-en-us"
        case let .decodingFailed(operation):
            "pocketsphinx failed to \(operation)"
        }
    }
}
