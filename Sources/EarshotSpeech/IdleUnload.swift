import CMalloc
public import Dispatch
import EarshotBase

/// How long an embedded engine (pocketsphinx, flite, espeak-ng) keeps what it loaded (a model,
/// voices) once nothing uses it, and who hears when it loads and releases it.
///
/// The engine loads at its first use and releases after `delay` without one; the next use loads
/// it again. A nil delay keeps it for the life of the process once loaded.
public struct IdleUnload: Sendable {
    public var delay: Duration?
    public var report: @Sendable (EngineMemoryEvent) -> Void

    public init(after delay: Duration?, report: @escaping @Sendable (EngineMemoryEvent) -> Void = { _ in }) {
        self.delay = delay
        self.report = report
    }

    /// Loaded at the first use, kept from then on.
    public static let never = IdleUnload(after: nil)
}

/// An embedded engine loaded or released what it holds in memory.
public enum EngineMemoryEvent: Sendable, Equatable {
    /// `what` ("pocketsphinx model", "flite voices") was loaded, which took `duration`.
    case loaded(what: String, duration: Duration)
    /// `what` was released after `idle` without use.
    case released(what: String, idle: Duration)
}

/// Releases an engine once it has gone unused for an ``IdleUnload``'s delay. It belongs to the
/// serial queue the engine lives on: every method is called on that queue, and the release
/// runs there too, so it never happens while the engine works.
public final class IdleReleaseTimer: @unchecked Sendable {
    // @unchecked: `generation` is read and written only on `queue`.
    private let queue: DispatchQueue
    /// Counts uses begun and releases scheduled: a scheduled release whose number is no longer
    /// the latest was overtaken by a use and does nothing.
    private var generation = 0

    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// A use begins: a release scheduled before it will not happen.
    public func cancel() {
        dispatchPrecondition(condition: .onQueue(queue))
        generation &+= 1
    }

    /// A use ended: unless another begins first, runs `release` after `unload`'s delay, then
    /// hands the freed heap back to the system. `release` returns what it released, nil if
    /// nothing was loaded.
    public func schedule(_ unload: IdleUnload, release: @escaping @Sendable () -> String?) {
        dispatchPrecondition(condition: .onQueue(queue))
        generation &+= 1
        guard let delay = unload.delay else { return }
        let scheduled = generation
        queue.asyncAfter(deadline: .now() + Self.interval(delay)) {
            guard self.generation == scheduled, let released = release() else { return }
            Self.returnFreedMemory()
            unload.report(.released(what: released, idle: delay))
        }
    }

    /// glibc keeps freed memory in its arenas for later allocations: without a trim, a released
    /// model's tens of megabytes would stay resident. The engine's code goes back too; should the
    /// kernel refuse, those pages only stay mapped.
    public static func returnFreedMemory() {
        malloc_trim(0)
        _ = try? CleanFilePages.release()
    }

    /// The process's heap in use, in kilobytes (arena chunks allocated plus mmapped blocks):
    /// what a release frees, however fragmented the arenas that the trim hands back are.
    public static func heapKilobytesInUse() -> Int {
        let info = mallinfo2()
        return (info.uordblks + info.hblkhd) / 1024
    }

    private static func interval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
