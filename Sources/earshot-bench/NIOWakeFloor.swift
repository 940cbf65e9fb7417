import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// `WakeFloor` through SwiftNIO, as the daemon's level events go: the waker hands a made closure
/// to an event loop with `execute` on 60 of each 100 wakes; the closure writes a 150-byte line
/// on a channel over a Unix socket that a third thread drains. The figures: the waker's CPU per
/// `execute`, and the loop thread's CPU per line (its wake-up, the task, the pipeline, the write).
/// Beside `WakeFloor` it tells the framework's part of a level event from the daemon's own.
enum NIOWakeFloor {
    static func measure(seconds: Double) throws -> WakeFloor.Costs {
        var pair: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else {
            throw LiveBench.Failure(description: "NIO wake floor: \(String(cString: strerror(errno)))")
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let channel = try ClientBootstrap(group: group).withConnectedSocket(pair[0]).wait()
        let drained = DispatchSemaphore(value: 0)
        let reader = pair[1]
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while buffer.withUnsafeMutableBytes({ read(reader, $0.baseAddress, $0.count) }) > 0 {}
            drained.signal()
        }
        var line = ByteBuffer(repeating: UInt8(ascii: "x"), count: 149)
        line.writeInteger(UInt8(ascii: "\n"))
        let write: @Sendable () -> Void = { [line] in channel.writeAndFlush(line, promise: nil) }
        let loopStart = try channel.eventLoop.submit { WakeFloor.threadSeconds() }.wait()
        let busy = WakeFloor.wake(times: Int(seconds * 50)) { channel.eventLoop.execute(write) }
        let loopSeconds = try channel.eventLoop.submit { WakeFloor.threadSeconds() }.wait() - loopStart
        try channel.close().wait()
        drained.wait()
        close(reader)
        return WakeFloor.Costs(
            wakerPerEvent: busy.seconds / Double(max(1, busy.events)) * 1e6,
            loopPerLine: loopSeconds / Double(max(1, busy.events)) * 1e6,
            events: busy.events
        )
    }
}
