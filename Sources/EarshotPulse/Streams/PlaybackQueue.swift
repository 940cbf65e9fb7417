/// Samples waiting to be written to the playback stream, in the order they were queued.
struct PlaybackQueue {
    private var chunks: [[Float]] = []
    /// Samples of `chunks[0]` already written.
    private var offset = 0

    var isEmpty: Bool { chunks.isEmpty }

    mutating func append(_ samples: [Float]) {
        if !samples.isEmpty { chunks.append(samples) }
    }

    mutating func removeAll() {
        chunks.removeAll()
        offset = 0
    }

    /// Hands up to `limit` of the oldest samples to `body` in one contiguous piece and removes
    /// them if `body` succeeds; returns how many were handed over.
    mutating func consume<Failure: Error>(
        upTo limit: Int, _ body: (UnsafeBufferPointer<Float>) throws(Failure) -> Void
    ) throws(Failure) -> Int {
        guard let first = chunks.first, limit > 0 else { return 0 }
        let count = min(limit, first.count - offset)
        try first.withUnsafeBufferPointer { (samples) throws(Failure) in
            try body(UnsafeBufferPointer(rebasing: samples[offset..<(offset + count)]))
        }
        offset += count
        if offset == first.count {
            chunks.removeFirst()
            offset = 0
        }
        return count
    }
}
