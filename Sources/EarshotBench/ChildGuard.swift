import Foundation
import Synchronization

/// Ends the processes a benchmark started when the benchmark itself is told to stop (SIGINT,
/// SIGTERM, SIGHUP): deinitialisers never run then, and an `earshotd` whose sound server
/// vanished would retry forever. Errors are handled by the owners' `defer`s instead.
enum ChildGuard {
    private static let children = Mutex<Set<pid_t>>([])
    /// Installs the handlers, which last as long as the sources returned are kept.
    static func install() -> [any DispatchSourceSignal] {
        // A daemon that dies mid-write would otherwise end the benchmark without any cleanup.
        signal(SIGPIPE, SIG_IGN)
        return [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { endAll(exitingWith: 128 + number) }
            source.resume()
            return source
        }
    }

    static func register(_ pid: pid_t?) {
        guard let pid else { return }
        _ = children.withLock { $0.insert(pid) }
    }

    static func unregister(_ pid: pid_t?) {
        guard let pid else { return }
        _ = children.withLock { $0.remove(pid) }
    }

    private static func endAll(exitingWith status: Int32) -> Never {
        for pid in children.withLock({ $0 }) { kill(pid, SIGKILL) }
        // The test servers' directories carry the owner's pid; a later run would remove them too.
        let owner = "-\(getpid())-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
        for name in names where name.hasPrefix("earshot-") && name.contains(owner) {
            try? FileManager.default.removeItem(atPath: "/tmp/" + name)
        }
        print("earshot-bench: interrupted; the processes it started are ended")
        exit(status)
    }
}
