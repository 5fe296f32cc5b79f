import Foundation
import Storage

/// A failure the user can act on, as one line (a file that does not load,
/// a server that does not answer). The command line prints it and exits 1;
/// the window shows it as a notice.
public struct RuntimeFailure: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ message: String) { description = message }
}

extension RuntimeFailure {
    /// Parses a whole file's bytes strictly; a syntax error (or a size over
    /// `limit`) is a failure naming `file`, line and column.
    static func document(_ data: Data, limit: Int, file: String) throws(RuntimeFailure) -> JSONNode {
        do {
            return try StrictJSON.parse(data: data, limit: limit)
        } catch {
            throw RuntimeFailure(error.inFile(file).description)
        }
    }
}
