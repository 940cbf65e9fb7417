/// The part of a fixture's sidecar JSON the tests read.
struct EndpointerFixtureLabels: Decodable {
    let segments: [EndpointerFixtureSegment]
}
