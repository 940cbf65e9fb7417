import EarshotServer
import Glibc
import NIOCore
import NIOPosix
import Testing

@Suite struct ServerEventLoopSchedulingTests {
    /// A serving socket server's event loops do not preempt the capture thread when woken.
    @Test func servingPutsEveryEventLoopUnderTheBatchPolicy() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let directory = try ServerHarness.makeDirectory()
        defer { ServerHarness.cleanUp(directory) }
        let before = try await policies(of: group)
        #expect(before == [0, 0])
        let server = SocketServer(configuration: .init(path: directory + "/earshot.sock"), eventLoopGroup: group, handler: TestTurnHandler())
        let serving = try await ServerHarness.run(server) { try await policies(of: group) }
        #expect(serving == [EventLoopScheduling.batchPolicy, EventLoopScheduling.batchPolicy])
        try await group.shutdownGracefully()
    }

    private func policies(of group: MultiThreadedEventLoopGroup) async throws -> [Int32] {
        var policies: [Int32] = []
        for loop in group.makeIterator() {
            policies.append(try await loop.submit { sched_getscheduler(0) }.get())
        }
        return policies
    }
}
