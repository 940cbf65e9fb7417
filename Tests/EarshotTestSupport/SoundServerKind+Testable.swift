extension SoundServerKind {
    /// The servers the live tests run against: every installed one, and under `CI=true` every
    /// one, so that a missing server fails its tests instead of skipping them.
    public static var testable: [SoundServerKind] {
        allCases.filter { $0.isAvailable || TestPeers.requireAll }
    }
}
