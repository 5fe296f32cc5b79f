import Foundation
import Storage

/// Folder work for captures and the library: creating folders with a
/// readable error (the folders themselves come from `UserFolders`).
enum FolderCreation {
    /// Creates a directory and its parents (mode 0755); throws a readable error.
    static func makeDirectory(_ path: String) throws(CaptureError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw CaptureError("cannot create the folder \(path): \(reason(error))")
        }
    }

    /// The system's words for a Foundation error (the POSIX text when there is one).
    static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        if let u = ns.userInfo[NSUnderlyingErrorKey] as? NSError, u.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(u.code)))
        }
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        return ns.localizedDescription
    }
}

/// A capture or file failure in plain words (shown as a notice).
struct CaptureError: Error, CustomStringConvertible, Equatable {
    let description: String
    init(_ text: String) { description = text }
}
