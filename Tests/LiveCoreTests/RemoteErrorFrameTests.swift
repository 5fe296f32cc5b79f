import Testing
@testable import LiveCore

/// An `error` frame with a very long message still delivers its code (the
/// message is cut, the frame is not dropped).
@Suite struct RemoteErrorFrameTests {
    @Test func aLongMessageIsCutAndTheCodeKept() {
        let long = String(repeating: "x", count: 5000)
        let frame = Array(#"{"type":"error","code":"replaced","message":"\#(long)"}"#.utf8)
        guard case .message(.error(let code, let message)) = RemoteMessage.decode(frame) else {
            Issue.record("the frame must decode: \(RemoteMessage.decode(frame))")
            return
        }
        #expect(code == "replaced")
        #expect(message.count == RemoteMessage.maxErrorMessage + 1 && message.hasSuffix("…"))
        #expect(message.hasPrefix(String(repeating: "x", count: RemoteMessage.maxErrorMessage)))
        let short = Array(#"{"type":"error","code":"busy","message":"full"}"#.utf8)
        #expect(RemoteMessage.decode(short) == .message(.error(code: "busy", message: "full")))
    }
}
