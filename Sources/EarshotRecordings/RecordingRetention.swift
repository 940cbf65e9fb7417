/// Which recorded turns stay on disk: the newest `keeping` of them, by run then turn number.
/// Every file of an older turn goes, its partial leftovers included.
public struct RecordingRetention: Equatable, Sendable {
    /// How many turns to keep; 0 keeps none.
    public var keeping: Int

    public init(keeping: Int) {
        self.keeping = max(0, keeping)
    }

    /// The turns among `names` that are kept, oldest first.
    public func keptTurns(_ names: [RecordingName]) -> [RecordedTurn] {
        Array(Set(names.map(\.turn)).sorted().suffix(keeping))
    }

    /// The files among `names` that belong to turns beyond the newest `keeping`, in order.
    public func surplus(_ names: [RecordingName]) -> [RecordingName] {
        let kept = Set(keptTurns(names))
        return names.filter { !kept.contains($0.turn) }.sorted()
    }
}
