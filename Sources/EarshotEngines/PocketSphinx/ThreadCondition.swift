#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock and a condition (pthread's) for a thread that waits until another changes what the
/// lock guards: what Foundation's `NSCondition` is, without Foundation.
final class ThreadCondition: @unchecked Sendable {
    // @unchecked: pthread's mutex and condition are made to be shared between threads; they are
    // allocated once because they must not move.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func withLock<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Waits for a ``signal()``, the lock released meanwhile: only inside ``withLock(_:)``, in a
    /// loop that checks again what it waits for (a wake-up may come without one).
    func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Wakes the thread waiting, if any; only inside ``withLock(_:)``.
    func signal() {
        pthread_cond_signal(condition)
    }
}
