/// One display mode: pixel size and refresh in millihertz (0 when unknown).
package struct OutputMode: Hashable, Sendable, CustomStringConvertible {
    package var width: Int
    package var height: Int
    package var refreshMilliHz: Int
    package var isPreferred: Bool

    package init(width: Int, height: Int, refreshMilliHz: Int, isPreferred: Bool = false) {
        self.width = width
        self.height = height
        self.refreshMilliHz = refreshMilliHz
        self.isPreferred = isPreferred
    }

    package var description: String {
        let hz = Double(refreshMilliHz) / 1000
        return refreshMilliHz > 0
            ? "\(width)x\(height) @ \(String(format: "%.3f", hz)) Hz" : "\(width)x\(height) @ unknown refresh"
    }

    func sameTiming(_ other: OutputMode) -> Bool {
        width == other.width && height == other.height && refreshMilliHz == other.refreshMilliHz
    }
}
