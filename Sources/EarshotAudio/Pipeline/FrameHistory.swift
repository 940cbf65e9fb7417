
/// The most recent frames, so an utterance can start before the moment it was recognised.
struct FrameHistory {
    private var frames: [AudioFrame]
    private var newest = -1

    init(capacity: Int) {
        frames = Array(repeating: .silence(index: -1), count: max(1, capacity))
    }

    mutating func append(_ frame: borrowing AudioFrame) {
        frames[frame.index % frames.count] = copy frame
        newest = frame.index
    }

    /// Keeps at least `capacity` frames from now on (a longer prefix padding needs more); the
    /// frames already kept stay.
    mutating func grow(toCapacity capacity: Int) {
        guard capacity > frames.count else { return }
        let kept = frames(from: 0)
        frames = Array(repeating: .silence(index: -1), count: capacity)
        for frame in kept { frames[frame.index % capacity] = frame }
    }

    /// The kept frames from index `start` through the newest.
    func frames(from start: Int) -> [AudioFrame] {
        guard newest >= 0 else { return [] }
        let first = max(start, newest - frames.count + 1, 0)
        guard first <= newest else { return [] }
        return (first...newest).map { frames[$0 % frames.count] }
    }
}
