import Engine
import Foundation
import Storage
import TestSupport
import Testing
@testable import LiveCore
@testable import LiveApp

/// Screenshots (real PNG files in a temporary XDG pictures folder) and the
/// user-directory rules.
@Suite struct ScreenshotTests {
    @Test func picturesFolderFromEnvironmentThenUserDirsThenHome() {
        let env = ["HOME": "/home/u"]
        #expect(UserFolders.userDirectory("PICTURES", fallback: "Pictures", env: env, userDirs: nil) == "/home/u/Pictures")
        let dirs = "# comment\nXDG_DESKTOP_DIR=\"$HOME/Desktop\"\nXDG_PICTURES_DIR=\"$HOME/Bilder\"\n"
        #expect(UserFolders.userDirectory("PICTURES", fallback: "Pictures", env: env, userDirs: dirs) == "/home/u/Bilder")
        #expect(UserFolders.userDirectory("PICTURES", fallback: "Pictures", env: env.merging(["XDG_PICTURES_DIR": "/data/pics/"]) { $1 },
                                              userDirs: dirs) == "/data/pics")
        // "$HOME/" alone means the directory is disabled; a relative path is invalid: both fall back.
        #expect(UserFolders.userDirectory("PICTURES", fallback: "Pictures", env: env, userDirs: "XDG_PICTURES_DIR=\"$HOME/\"") == "/home/u/Pictures")
        #expect(UserFolders.userDirectory("PICTURES", fallback: "Pictures", env: env, userDirs: "XDG_PICTURES_DIR=\"pics\"") == "/home/u/Pictures")
    }

    func frame() -> RGBAImage {
        var img = RGBAImage(width: 33, height: 17)
        for y in 0..<17 { for x in 0..<33 {
            let i = (y * 33 + x) * 4
            img.pixels[i] = UInt8(x * 7); img.pixels[i + 1] = UInt8(y * 15); img.pixels[i + 2] = 200; img.pixels[i + 3] = 255
        } }
        return img
    }

    @Test func screenshotIsARealPNGInThePicturesFolder() throws {
        let dir = LibraryTestDir()
        // The pictures folder comes from user-dirs.dirs under XDG_CONFIG_HOME.
        try dir.write("config/user-dirs.dirs", "XDG_PICTURES_DIR=\"$HOME/Pics\"\n")
        let env = ["HOME": dir.path + "/home", "XDG_CONFIG_HOME": dir.path + "/config"]
        let worker = FileWorker<AppAction>(name: "test.shots")
        defer { worker.shutdown(timeout: 10) }
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(Screenshot.save(frame(), worker: worker, environment: env, date: date))
        #expect(Screenshot.save(frame(), worker: worker, environment: env, date: date))
        #expect(poll(seconds: 10) { worker.completedCount == 2 })
        let replies = worker.drainReplies()
        let folder = dir.path + "/home/Pics/physarum"
        let names = dir.names("home/Pics/physarum")
        let stem = Screenshot.fileStem(date)
        #expect(names == [stem + "-2.png", stem + ".png"])
        #expect(replies == [.notice("Screenshot saved: \(folder)/\(stem).png", .info), .notice("Screenshot saved: \(folder)/\(stem)-2.png", .info)])
        let back = try PNGCodec.decode([UInt8](try #require(dir.read("home/Pics/physarum/" + stem + ".png"))))
        #expect(back == frame())
    }

    @Test func anUnwritableFolderGivesANoticeNotACrash() throws {
        let dir = LibraryTestDir()
        try dir.write("blocker", "a file where the folder should be")
        let worker = FileWorker<AppAction>(name: "test.shots")
        defer { worker.shutdown(timeout: 10) }
        #expect(Screenshot.save(frame(), worker: worker, environment: ["HOME": "/nonexistent", "XDG_PICTURES_DIR": dir.file("blocker")]))
        #expect(poll(seconds: 10) { worker.completedCount == 1 })
        guard case .notice(let text, .warning) = try #require(worker.drainReplies().first) else {
            Issue.record("expected a warning notice")
            return
        }
        #expect(text.hasPrefix("Screenshot not saved: cannot create the folder \(dir.file("blocker"))/physarum"))
    }

    @Test func thumbnailsKeepTheAspectWithBlackBars() {
        // A 4:3 frame, left half white: the 16:9 thumbnail has bars left and right.
        var f = RGBAImage(width: 40, height: 30)
        for y in 0..<30 { for x in 0..<20 { for c in 0..<3 { f.pixels[(y * 40 + x) * 4 + c] = 255 } } }
        let t = Thumbnail.make(from: f.pixels, width: 40, height: 30)
        #expect(t.width == 160 && t.height == 90)
        #expect(t.pixel(x: 5, y: 45) == (0, 0, 0, 255))  // bar
        #expect(t.pixel(x: 30, y: 45) == (255, 255, 255, 255))  // white half
        #expect(t.pixel(x: 130, y: 45) == (0, 0, 0, 255))  // black half
    }
}
