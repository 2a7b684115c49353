/// One display mode: pixel size and refresh in millihertz (0 when unknown).
public struct OutputMode: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public var refreshMilliHz: Int
    public var isPreferred: Bool

    public init(width: Int, height: Int, refreshMilliHz: Int, isPreferred: Bool = false) {
        self.width = width
        self.height = height
        self.refreshMilliHz = refreshMilliHz
        self.isPreferred = isPreferred
    }

    public var description: String {
        let hz = Double(refreshMilliHz) / 1000
        return refreshMilliHz > 0
            ? "\(width)x\(height) @ \(String(format: "%.3f", hz)) Hz" : "\(width)x\(height) @ unknown refresh"
    }

    func sameTiming(_ other: OutputMode) -> Bool {
        width == other.width && height == other.height && refreshMilliHz == other.refreshMilliHz
    }
}
