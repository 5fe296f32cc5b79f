import Engine
import AudioReactive
import Foundation
import LiveCore
import Storage

/// Screenshots (P): a PNG of the output into `$XDG_PICTURES_DIR/physarum/`
/// (or `~/Pictures/physarum/`), encoded and written by the I/O worker.
enum Screenshot {
    /// Queues the PNG of `image` (a copy of the output frame). The worker
    /// answers with a notice naming the file, or the failure. False when the
    /// worker's queue is full (the caller shows a notice).
    static func save(_ image: RGBAImage, worker: FileWorker<AppAction>,
                     environment: [String: String] = ProcessInfo.processInfo.environment, date: Date = Date()) -> Bool {
        worker.submit {
            do {
                let dir = UserFolders.screenshotDirectory(environment)
                let path = try write(image, directory: dir, date: date)
                return [.notice("Screenshot saved: \(path)", .info)]
            } catch {
                return [.notice("Screenshot not saved: \(error)", .warning)]
            }
        }
    }

    /// Encodes and writes `image` into `directory` (created if needed) under an
    /// unused time-stamped name; returns the path. Runs on the worker.
    static func write(_ image: RGBAImage, directory: String, date: Date) throws(CaptureError) -> String {
        try FolderCreation.makeDirectory(directory)
        let base = directory + "/" + fileStem(date)
        var path = base + ".png"
        var n = 2
        while FileManager.default.fileExists(atPath: path) {
            path = base + "-\(n).png"
            n += 1
        }
        let bytes: [UInt8]
        do {
            bytes = try PNGCodec.encode(image)
        } catch {
            throw CaptureError("\(error)")
        }
        do {
            try SafeFile.writeAtomically(Data(bytes), to: URL(fileURLWithPath: path))
        } catch {
            throw CaptureError(error.reason)
        }
        return path
    }

    /// `physarum-YYYYMMDD-HHMMSS-mmm` in local time.
    static func fileStem(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyyMMdd-HHmmss-SSS"
        return "physarum-" + f.string(from: date)
    }
}
