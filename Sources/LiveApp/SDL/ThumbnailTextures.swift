import CSDL2
import Engine
import Foundation

/// GL textures of the library's thumbnails for the panel (`ig_image`).
/// A thumbnail saved in this session is uploaded straight from memory; older
/// ones are read and decoded on a small worker thread (never on the frame
/// path) and uploaded when they arrive. A missing file simply has no texture.
///
/// Thread safety: main thread. GL work happens only in `update()`, which the
/// panel code calls while the editor window's GL context is current (where
/// ImGui draws); `set`/`remove` only queue. The loader thread only reads files.
/// Textures live as long as that GL context.
final class ThumbnailTextures {
    private var textures: [String: GLuint] = [:]
    private var requested: Set<String> = []
    private var uploads: [(id: String, image: RGBAImage)] = []
    private var removals: [String] = []
    private let loader = FileWorker<(id: String, image: RGBAImage?)>(name: "physarum.thumbnails", capacity: 64)
    private let store: LibraryStore
    /// Factory presets' cached pictures (rendered in the background).
    private let factory: FactoryThumbnails?

    init(store: LibraryStore, factory: FactoryThumbnails? = nil) {
        self.store = store
        self.factory = factory
    }

    deinit { loader.shutdown(timeout: 2) }

    /// The texture of a preset's thumbnail (a user slot's, or a factory
    /// preset's once its picture is cached), if loaded; asks for it otherwise.
    func texture(for id: String) -> UInt32? {
        if let t = textures[id] { return t }
        if !requested.contains(id), let url = store.thumbnailURL(for: id) ?? factory?.url(for: id) {
            let path = url.path
            if loader.submit({ [(id, try? PNGCodec.read(path))] }) { requested.insert(id) }
        }
        return nil
    }

    /// Does the queued GL work: uploads saved and loaded thumbnails, deletes
    /// removed ones. Call once per frame before the panel, with the editor's
    /// GL context current.
    func update() {
        for (id, image) in loader.drainReplies() {
            if let image, requested.contains(id), !uploads.contains(where: { $0.id == id }) { uploads.append((id, image)) }
        }
        for (id, image) in uploads { upload(image, for: id) }
        uploads.removeAll()
        for id in removals {
            if var t = textures.removeValue(forKey: id) { glDeleteTextures(1, &t) }
        }
        removals.removeAll()
    }

    /// Uses `image` (just saved) as the thumbnail of `id` (uploaded in `update`).
    func set(_ image: RGBAImage, for id: String) {
        uploads.append((id, image))
        requested.insert(id)
        removals.removeAll { $0 == id }
    }

    private func upload(_ image: RGBAImage, for id: String) {
        var t = textures[id] ?? 0
        if t == 0 { glGenTextures(1, &t) }
        glBindTexture(GLenum(GL_TEXTURE_2D), t)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        image.pixels.withUnsafeBytes {
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(image.width), GLsizei(image.height), 0,
                         GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
        }
        textures[id] = t
    }

    /// Forgets the thumbnails of removed presets (deleted in `update`).
    func remove(_ ids: [String]) {
        for id in ids {
            removals.append(id)
            uploads.removeAll { $0.id == id }
            requested.remove(id)
        }
    }
}
