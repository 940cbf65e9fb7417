// A data race the thread sanitizer must report: `make sanitize` runs this first, so a build or
// an option that silenced the sanitizer fails the run instead of passing it.
import Foundation

nonisolated(unsafe) var counter = 0
let threads = (0..<2).map { _ in
    Thread {
        for _ in 0..<10_000 { counter += 1 }
    }
}
threads.forEach { $0.start() }
Thread.sleep(forTimeInterval: 0.5)
print(counter)
