/// What the daemon played, recorded from the speaker: the stretches of sound in it.
struct SpokenAudio {
    /// Start and length, in seconds, of each stretch of sound.
    let stretches: [(start: Double, length: Double)]

    init(samples: [Float], sampleRate: Double = 16_000) {
        // 10 ms windows; a stretch ends after 300 ms below the threshold (pauses between words
        // and sentences stay inside it).
        let window = Int(sampleRate / 100)
        var found: [(Double, Double)] = []
        var openedAt: Int?
        var lastLoud = 0
        var index = 0
        while index + window <= samples.count {
            var energy: Float = 0
            for sample in samples[index..<index + window] { energy += sample * sample }
            let loud = (energy / Float(window)).squareRoot() > 0.01
            let position = index / window
            if loud {
                if openedAt == nil { openedAt = position }
                lastLoud = position
            } else if let opened = openedAt, position - lastLoud > 30 {
                found.append((Double(opened) / 100, Double(lastLoud - opened + 1) / 100))
                openedAt = nil
            }
            index += window
        }
        if let opened = openedAt { found.append((Double(opened) / 100, Double(lastLoud - opened + 1) / 100)) }
        stretches = found
    }

    var summary: String {
        guard !stretches.isEmpty else { return "The speaker stayed silent: earshotd said nothing." }
        let parts = stretches.map { String(format: "%.1f s from %.1f s", $0.length, $0.start) }
        return "The speaker played \(stretches.count) stretch\(stretches.count == 1 ? "" : "es") of speech: " + parts.joined(separator: ", ") + "."
    }
}
