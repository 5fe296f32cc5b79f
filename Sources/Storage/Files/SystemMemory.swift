import Foundation

/// The machine's free memory as the kernel estimates it (`MemAvailable` in
/// /proc/meminfo: free memory plus what caches would give back), read
/// through `SafeFile`. Stateless; any thread.
public enum SystemMemory {
    /// Bytes available now; nil when /proc/meminfo cannot be read or says nothing.
    public static func available(meminfo: String = "/proc/meminfo") -> Int? {
        guard let data = try? SafeFile.read(URL(fileURLWithPath: meminfo), limit: 1 << 16) else { return nil }
        return parseAvailable(String(decoding: data, as: UTF8.self))
    }

    /// `MemAvailable:  123456 kB` → 123456 × 1024.
    public static func parseAvailable(_ text: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count >= 2, let kb = Int(parts[1]) else { return nil }
            return kb * 1024
        }
        return nil
    }
}
