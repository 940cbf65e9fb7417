/// One labelled speech segment of a fixture, in seconds of clip time (end exclusive).
struct EndpointerFixtureSegment: Decodable {
    let start: Double
    let end: Double
}
