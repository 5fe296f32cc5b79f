import CSDL2
@testable import LiveApp

/// Keys only the tests press (the app reads the rest itself).
extension ScanCode {
    static let enter = Int32(SDL_SCANCODE_RETURN.rawValue)
    static let space = Int32(SDL_SCANCODE_SPACE.rawValue)
    static let a = Int32(SDL_SCANCODE_A.rawValue)
}
