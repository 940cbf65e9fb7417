/// Where a pocketsphinx model's three parts live.
public struct PocketSphinxModel: Sendable, Hashable {
    /// One of the files a model is made of, named as error messages name it.
    public enum Part: String, Sendable, Hashable {
        case acousticModel = "acoustic model"
        case languageModel = "language model"
        case dictionary = "pronunciation dictionary"
    }

    /// A directory of HMM files (`mdef`, `means`, ...).
    public var acousticModel: String
    /// An n-gram language model (ARPA or binary).
    public var languageModel: String
    public var dictionary: String

    public init(acousticModel: String, languageModel: String, dictionary: String) {
        self.acousticModel = acousticModel
        self.languageModel = languageModel
        self.dictionary = dictionary
    }

    /// US English from Debian's pocketsphinx-en-us.
    public static let debianEnglish = PocketSphinxModel(
        acousticModel: "/usr/share/pocketsphinx/model/en-us/en-us",
        languageModel: "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin",
        dictionary: "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict"
    )

    func path(of part: Part) -> String {
        switch part {
        case .acousticModel: acousticModel
        case .languageModel: languageModel
        case .dictionary: dictionary
        }
    }
}
