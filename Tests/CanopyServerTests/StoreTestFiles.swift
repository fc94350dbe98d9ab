import Foundation

/// A new, empty directory for one store test (removed by `removeStoreDirectory`).
func storeDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "canopy-store-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func removeStoreDirectory(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

/// The size of the file at `path` in bytes (0 if there is none).
func byteSize(ofFile path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
}
