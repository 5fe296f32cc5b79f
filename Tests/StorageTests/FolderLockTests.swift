import Foundation
import Storage
import Testing

/// The state folder's lock: one holder at a time, the holder's PID named,
/// released when the holder goes.
@Suite struct FolderLockTests {
    @Test func aSecondLockIsRefusedNamingTheHolderUntilTheFirstGoes() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("folder-lock-\(UUID().uuidString)/state")
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
        var first: FolderLock? = try FolderLock.acquire(dir, name: "session.lock").get()
        #expect(first != nil)
        switch FolderLock.acquire(dir, name: "session.lock") {
        case .success: Issue.record("a second holder must be refused")
        case .failure(let r): #expect(r == .held(pid: getpid()), "\(r)")
        }
        first = nil
        #expect((try? FolderLock.acquire(dir, name: "session.lock").get()) != nil, "free again once the first is gone")
    }
}
