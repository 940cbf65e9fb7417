import EarshotAudio

extension EchoGateScene {
    /// The person's side of the microphone: utterances one after another with pauses between.
    struct PersonTrack {
        var samples: [Float]
        /// One per frame: whether the person's labelled speech covers it.
        var labels: [Bool]
        /// The first labelled frame of each utterance.
        var onsets: [Int]

        /// Places `utterances` (cycling through them) from `firstFrame` on, `gapFrames` apart,
        /// as many as end before `count` samples.
        init(utterances: [Utterance], count: Int, firstFrame: Int, gapFrames: Int) {
            samples = [Float](repeating: 0, count: count)
            labels = [Bool](repeating: false, count: AudioClip(samples: samples).frameCount)
            onsets = []
            var frame = firstFrame
            var next = 0
            while let utterance = utterances.isEmpty ? nil : utterances[next % utterances.count],
                  frame * AudioFrame.sampleCount + utterance.samples.count <= count {
                EchoGateScene.add(utterance.samples, to: &samples, at: frame * AudioFrame.sampleCount)
                for labelled in utterance.speech { labels[frame + labelled] = true }
                onsets.append(frame + utterance.speech.lowerBound)
                frame += utterance.samples.count / AudioFrame.sampleCount + gapFrames
                next += 1
            }
        }

        /// Whether frame `index` is within `before` frames ahead of or `after` frames past the
        /// person's labelled speech (their breath, fade-in and the echo of the room aside).
        func isNearSpeech(_ index: Int, before: Int = 10, after: Int = 30) -> Bool {
            let first = max(index - after, 0), last = min(index + before, labels.count - 1)
            return first <= last && (first...last).contains { labels[$0] }
        }
    }
}
