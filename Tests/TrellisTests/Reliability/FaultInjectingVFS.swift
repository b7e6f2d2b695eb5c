import Foundation
import TrellisSQLite

/// An SQLite VFS that wraps the default one and fails the Nth read, write or
/// sync of the files it opens with an I/O error, once. Open a database through
/// it with a URI: `file:/path/to/db.sqlite?vfs=trellis-faults`.
///
/// The counters are global, as SQLite's VFS callbacks are C functions without
/// context: tests that use it run serialized, each on its own files.
enum FaultInjectingVFS {
    enum Operation: Sendable { case read, write, sync }

    static let name = "trellis-faults"

    // SQLite's extended codes are C macros, which Swift does not import.
    static let readError: Int32 = SQLITE_IOERR | (1 << 8)
    static let writeError: Int32 = SQLITE_IOERR | (3 << 8)
    static let syncError: Int32 = SQLITE_IOERR | (4 << 8)

    /// Fails the `count`th `operation` from now on (1 for the next one).
    static func failNext(_ operation: Operation, count: Int) {
        state.withLock { $0 = State(armed: operation, remaining: count) }
    }

    /// Whether the armed failure happened (and disarms it).
    static func disarm() -> Bool {
        state.withLock { state in
            defer { state = State() }
            return state.fired
        }
    }

    /// The URI of a database file opened through the VFS.
    static func uri(path: String) -> String {
        register()
        return "file:\(path)?vfs=\(name)"
    }

    // MARK: - State

    private struct State {
        var armed: Operation?
        var remaining = 0
        var fired = false
    }

    /// The state under a lock: SQLite calls the VFS on any connection's thread.
    private final class Locked: @unchecked Sendable {
        private let lock = NSLock()
        private var state = State()

        func withLock<T>(_ body: (inout State) -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body(&state)
        }
    }

    private static let state = Locked()

    /// Whether this operation fails: counts it when it is the armed one.
    fileprivate static func shouldFail(_ operation: Operation) -> Bool {
        state.withLock { state in
            guard state.armed == operation, !state.fired else { return false }
            state.remaining -= 1
            if state.remaining == 0 {
                state.fired = true
                return true
            }
            return false
        }
    }

    // MARK: - Registration

    private static let registration: Void = {
        guard let base = sqlite3_vfs_find(nil) else { return }
        let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        vfs.initialize(to: base.pointee)
        vfs.pointee.iVersion = min(base.pointee.iVersion, 3)
        vfs.pointee.zName = UnsafePointer(strdup(name))
        vfs.pointee.szOsFile = Int32(FaultFile.baseOffset) + base.pointee.szOsFile
        vfs.pointee.pNext = nil
        vfs.pointee.xOpen = faultOpen
        sqlite3_vfs_register(vfs, 0)
    }()

    private static func register() { _ = registration }
}

/// A file of the VFS: the `sqlite3_file` header that SQLite sees, followed
/// by the default VFS's file, to which every call is forwarded.
private enum FaultFile {
    /// Where the wrapped file starts, aligned for any of its fields.
    static let baseOffset = (MemoryLayout<sqlite3_file>.size + 15) & ~15

    static func wrapped(_ file: UnsafeMutablePointer<sqlite3_file>?) -> UnsafeMutablePointer<sqlite3_file> {
        UnsafeMutableRawPointer(file!).advanced(by: baseOffset).assumingMemoryBound(to: sqlite3_file.self)
    }

    static func methods(_ file: UnsafeMutablePointer<sqlite3_file>) -> sqlite3_io_methods {
        file.pointee.pMethods.pointee
    }

    // Made once, then only read by SQLite.
    nonisolated(unsafe) static let ioMethods: UnsafeMutablePointer<sqlite3_io_methods> = {
        var methods = sqlite3_io_methods()
        methods.iVersion = 1
        methods.xClose = { file in
            let inner = FaultFile.wrapped(file)
            return FaultFile.methods(inner).xClose!(inner)
        }
        methods.xRead = { file, buffer, amount, offset in
            if FaultInjectingVFS.shouldFail(.read) { return FaultInjectingVFS.readError }
            let inner = FaultFile.wrapped(file)
            return FaultFile.methods(inner).xRead!(inner, buffer, amount, offset)
        }
        methods.xWrite = { file, buffer, amount, offset in
            if FaultInjectingVFS.shouldFail(.write) { return FaultInjectingVFS.writeError }
            let inner = FaultFile.wrapped(file)
            return FaultFile.methods(inner).xWrite!(inner, buffer, amount, offset)
        }
        methods.xTruncate = { file, size in
            let inner = FaultFile.wrapped(file)
            return FaultFile.methods(inner).xTruncate!(inner, size)
        }
        methods.xSync = { file, flags in
            if FaultInjectingVFS.shouldFail(.sync) { return FaultInjectingVFS.syncError }
            let inner = FaultFile.wrapped(file)
            return FaultFile.methods(inner).xSync!(inner, flags)
        }
        methods.xFileSize = { file, size in
            let inner = FaultFile.wrapped(file)
            return FaultFile.methods(inner).xFileSize!(inner, size)
        }
        methods.xLock = { file, lock in
            let inner = FaultFile.wrapped(file)
            return FaultFile.methods(inner).xLock!(inner, lock)
        }
        methods.xUnlock = { file, lock in
            let inner = FaultFile.wrapped(file)
            return FaultFile.methods(inner).xUnlock!(inner, lock)
        }
        methods.xCheckReservedLock = { file, result in
            let inner = FaultFile.wrapped(file)
            return FaultFile.methods(inner).xCheckReservedLock!(inner, result)
        }
        methods.xFileControl = { file, operation, argument in
            let inner = FaultFile.wrapped(file)
            return FaultFile.methods(inner).xFileControl!(inner, operation, argument)
        }
        methods.xSectorSize = { file in
            let inner = FaultFile.wrapped(file)
            return FaultFile.methods(inner).xSectorSize!(inner)
        }
        methods.xDeviceCharacteristics = { file in
            let inner = FaultFile.wrapped(file)
            return FaultFile.methods(inner).xDeviceCharacteristics!(inner)
        }
        let pointer = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
        pointer.initialize(to: methods)
        return pointer
    }()
}

private func faultOpen(
    _ vfs: UnsafeMutablePointer<sqlite3_vfs>?, _ name: UnsafePointer<CChar>?,
    _ file: UnsafeMutablePointer<sqlite3_file>?, _ flags: Int32, _ outFlags: UnsafeMutablePointer<Int32>?) -> Int32
{
    guard let file, let base = sqlite3_vfs_find(nil) else { return SQLITE_CANTOPEN }
    file.pointee.pMethods = nil
    let inner = FaultFile.wrapped(file)
    let code = base.pointee.xOpen!(base, name, inner, flags, outFlags)
    if code == SQLITE_OK, inner.pointee.pMethods != nil {
        file.pointee.pMethods = UnsafePointer(FaultFile.ioMethods)
    }
    return code
}
