/// Length-prefixed frames: a 4-byte big-endian length, then that many bytes
/// of UTF-8 JSON.
public enum FrameCodec {
    /// `payload` with its length prefix.
    public static func frame(_ payload: [UInt8]) -> [UInt8] {
        precondition(payload.count <= Int(UInt32.max), "frame too large")
        let n = UInt32(payload.count)
        var out: [UInt8] = [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
        out.reserveCapacity(4 + payload.count)
        out += payload
        return out
    }
}

/// Splits a byte stream into frames, whatever the read boundaries: a frame may
/// arrive in many pieces and one read may hold many frames.
///
/// - An empty frame is skipped (`.skipped`); so is a frame whose first byte
///   cannot start a JSON object — its bytes are discarded as they arrive, never
///   buffered. Neither poisons the stream: the next frame decodes normally.
/// - A length over `limit` is `.fatal`: the connection must close (the decoder
///   accepts nothing more).
///
/// A pure value type; one per connection, owned by the network thread.
public struct FrameDecoder: Sendable {
    /// What one step of decoding found.
    public enum Event: Equatable, Sendable {
        /// A complete frame's payload (still to be parsed as JSON).
        case frame([UInt8])
        /// A frame that was dropped, with the reason (log it and go on).
        case skipped(String)
        /// The stream is unusable (close the connection), with the reason.
        case fatal(String)
    }

    /// Largest payload accepted; raise it after a valid `hello`.
    public var limit: Int
    /// Why the stream failed, once it has.
    public private(set) var failure: String?
    private var header: [UInt8] = []
    /// Payload length of the frame being read (nil while reading a header).
    private var expected: Int?
    private var body: [UInt8] = []
    /// Bytes of a rejected frame still to discard.
    private var discard = 0
    /// Total bytes buffered (header + body), for memory accounting.
    public var bufferedBytes: Int { header.count + body.count }

    public init(limit: Int) { self.limit = limit }

    /// Feeds bytes from one read; returns what they completed, in order.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [Event] {
        var events: [Event] = []
        var rest = bytes
        while !rest.isEmpty {
            let (e, used) = feed(rest, stopAfterFrame: false)
            events += e
            if used == 0 { break }
            rest = UnsafeRawBufferPointer(rebasing: rest[used...])
        }
        return events
    }

    /// Feeds bytes, stopping right after the first complete frame when
    /// `stopAfterFrame` is set (so the caller can act on it — e.g. raise the
    /// limit after a valid `hello` — before the next frame's length is checked).
    /// Returns the events and how many bytes were used.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, stopAfterFrame: Bool) -> (events: [Event], used: Int) {
        guard failure == nil else { return ([], bytes.count) }
        var events: [Event] = []
        var i = 0
        let n = bytes.count
        while i < n {
            if discard > 0 {
                let k = min(discard, n - i)
                discard -= k
                i += k
                continue
            }
            guard let length = expected else {
                header.append(bytes[i])
                i += 1
                guard header.count == 4 else { continue }
                let len = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
                header.removeAll(keepingCapacity: true)
                if len == 0 {
                    events.append(.skipped("empty frame"))
                } else if len > limit {
                    failure = "frame of \(len) bytes is over the limit of \(limit) bytes"
                    events.append(.fatal(failure!))
                    return (events, n)
                } else {
                    expected = len
                }
                continue
            }
            if body.isEmpty && !Self.canStartObject(bytes[i]) {
                // Not a JSON object: drop it without buffering.
                expected = nil
                discard = length
                events.append(.skipped("frame of \(length) bytes is not a JSON object (starts with byte \(bytes[i]))"))
                continue
            }
            let k = min(length - body.count, n - i)
            body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[i..<(i + k)]))
            i += k
            if body.count == length {
                events.append(.frame(body))
                body = []
                expected = nil
                if stopAfterFrame { return (events, i) }
            }
        }
        return (events, i)
    }

    /// Feeds bytes from an array (tests, small inputs).
    public mutating func feed(_ bytes: [UInt8]) -> [Event] {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// `{`, JSON whitespace, or the first byte of a UTF-8 byte-order mark.
    private static func canStartObject(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "{") || b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0xEF
    }
}
