/// The loudness contour of audio, 10 ms at a time: what survives Opus encoding, so a recording
/// can be found in the file that was played into the microphone.
enum AudioEnvelope {
    /// RMS of each whole 10 ms (160-sample) stretch of 16 kHz `samples`.
    static func of(_ samples: [Float]) -> [Double] {
        stride(from: 0, to: samples.count - 159, by: 160).map { start in
            var sum = 0.0
            for index in start..<(start + 160) { sum += Double(samples[index]) * Double(samples[index]) }
            return (sum / 160).squareRoot()
        }
    }

    /// Where `part` fits `whole` best (in 10 ms steps) and how well: the Pearson correlation there.
    static func bestMatch(of part: [Double], in whole: [Double]) -> (offset: Int, correlation: Double) {
        guard part.count > 1, whole.count >= part.count else { return (0, 0) }
        var best = (offset: 0, correlation: -1.0)
        for offset in 0...(whole.count - part.count) {
            let correlation = pearson(part, Array(whole[offset..<(offset + part.count)]))
            if correlation > best.correlation { best = (offset, correlation) }
        }
        return best
    }

    static func pearson(_ a: [Double], _ b: [Double]) -> Double {
        let meanA = a.reduce(0, +) / Double(a.count), meanB = b.reduce(0, +) / Double(b.count)
        var product = 0.0, squaresA = 0.0, squaresB = 0.0
        for (x, y) in zip(a, b) {
            product += (x - meanA) * (y - meanB)
            squaresA += (x - meanA) * (x - meanA)
            squaresB += (y - meanB) * (y - meanB)
        }
        return squaresA > 0 && squaresB > 0 ? product / (squaresA * squaresB).squareRoot() : 0
    }
}
