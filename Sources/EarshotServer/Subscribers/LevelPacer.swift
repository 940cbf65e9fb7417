import EarshotProtocol

/// Thins one subscriber's level readings to its `level_hz`, per source, in audio time.
///
/// A reading goes out when at least 1/level_hz has passed since the last one that did, less
/// one 10 ms frame: readings are stamped at the end of the frame that completes them, so two
/// readings 1/level_hz apart can be stamped up to a frame closer. That tolerance alone would let
/// through up to 20 % too many (at 50 Hz every 60 Hz reading passes), so slots cap the count as
/// well: slot k opens at k/level_hz seconds, on the frame grid, and a reading must find an
/// unused open slot. Without the tolerance, 60 Hz readings thinned to 30 Hz would come out at
/// 20 Hz.
struct LevelPacer: Hashable, Sendable {
    static let framesPerSecond = 100

    let levelHz: Int
    private var nextDueFrame = [0, 0]
    private var lastDeliveredFrame: [Int?] = [nil, nil]
    private var lastSeenFrame = [Int.min, Int.min]

    init(levelHz: Int) {
        precondition(levelHz > 0, "level_hz must be positive")
        self.levelHz = levelHz
    }

    /// Whether the reading of `source` at audio time `time` goes out.
    mutating func admit(_ source: LevelEvent.Source, time: Double) -> Bool {
        let stream = source == .mic ? 0 : 1
        let frame = Int((time * Double(Self.framesPerSecond)).rounded())
        // A stamp earlier than the last one means a new stream: start afresh.
        if frame < lastSeenFrame[stream] {
            nextDueFrame[stream] = 0
            lastDeliveredFrame[stream] = nil
        }
        lastSeenFrame[stream] = frame
        guard frame >= nextDueFrame[stream] else { return false }
        if let last = lastDeliveredFrame[stream], (frame - last) * levelHz < Self.framesPerSecond - levelHz {
            return false
        }
        lastDeliveredFrame[stream] = frame
        let nextSlot = frame * levelHz / Self.framesPerSecond + 1
        nextDueFrame[stream] = (nextSlot * Self.framesPerSecond + levelHz - 1) / levelHz
        return true
    }
}
