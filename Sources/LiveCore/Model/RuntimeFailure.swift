/// A failure the user can act on, as one line (a file that does not load,
/// a server that does not answer). The command line prints it and exits 1;
/// the window shows it as a notice.
public struct RuntimeFailure: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ message: String) { description = message }
}
