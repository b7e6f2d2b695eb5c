import Dispatch
import Foundation
import Testing
import Trellis

// The quality of service and target queues, as GRDB 7 derives and uses
// them (checked with GRDB on Linux).
@Suite struct ConfigurationQualityOfServiceTests {
    private static let queueName = DispatchSpecificKey<String>()

    private func namedQueue(_ name: String, qos: DispatchQoS) -> DispatchQueue {
        let queue = DispatchQueue(label: name, qos: qos)
        queue.setSpecific(key: Self.queueName, value: name)
        return queue
    }

    /// The name of the target queue that the access runs on.
    private func currentQueueName() -> String? {
        DispatchQueue.getSpecific(key: Self.queueName)
    }

    @Test func readAndWriteQualitiesComeFromTheTargetQueuesThenFromQoS() {
        var configuration = Configuration()
        #expect(configuration.qos == .userInitiated)
        #expect(configuration.readQoS == .userInitiated)
        #expect(configuration.writeQoS == .userInitiated)
        configuration.qos = .utility
        #expect(configuration.readQoS == .utility)
        #expect(configuration.writeQoS == .utility)
        configuration.targetQueue = namedQueue("target", qos: .background)
        #expect(configuration.qos == .utility)
        #expect(configuration.readQoS == .background)
        #expect(configuration.writeQoS == .background)
        configuration.writeTargetQueue = namedQueue("writer", qos: .default)
        #expect(configuration.readQoS == .background)
        #expect(configuration.writeQoS == .default)
    }

    @Test func aQueueRunsOnTheWriteTargetQueueElseTheTargetQueue() throws {
        var configuration = Configuration()
        configuration.targetQueue = namedQueue("target", qos: .utility)
        #expect(try DatabaseQueue(configuration: configuration).read { _ in currentQueueName() } == "target")
        configuration.writeTargetQueue = namedQueue("writer", qos: .utility)
        let dbQueue = try DatabaseQueue(configuration: configuration)
        #expect(try dbQueue.read { _ in currentQueueName() } == "writer")
        #expect(try dbQueue.write { _ in currentQueueName() } == "writer")
        #expect(try DatabaseQueue().read { _ in currentQueueName() } == nil)
    }

    @Test func aPoolReadsOnTheTargetQueueAndWritesOnTheWriteTargetQueue() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("qos-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var configuration = Configuration()
        configuration.targetQueue = namedQueue("target", qos: .utility)
        configuration.writeTargetQueue = namedQueue("writer", qos: .utility)
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        #expect(try dbPool.read { _ in currentQueueName() } == "target")
        #expect(try dbPool.write { _ in currentQueueName() } == "writer")
        #expect(try dbPool.makeSnapshot().read { _ in currentQueueName() } == "target")
    }
}
