/// A fixed-capacity FIFO that overwrites its oldest element when full, so
/// per-frame history costs constant memory however long a show runs.
public struct RingBuffer<Element: Sendable>: Sendable, RandomAccessCollection {
    /// Maximum number of elements kept; always at least 1.
    public let capacity: Int
    private var storage: [Element] = []
    // Index in `storage` of the oldest element once the buffer has wrapped.
    private var head = 0

    /// Creates an empty buffer holding at most `capacity` elements (min. 1).
    public init(capacity: Int) {
        self.capacity = Swift.max(capacity, 1)
        storage.reserveCapacity(self.capacity)
    }

    /// Appends `element`, dropping the oldest one when the buffer is full.
    public mutating func append(_ element: Element) {
        if storage.count < capacity {
            storage.append(element)
        } else {
            storage[head] = element
            head = (head + 1) % capacity
        }
    }

    /// Position of the oldest element (always 0).
    public var startIndex: Int { 0 }
    /// One past the position of the newest element.
    public var endIndex: Int { storage.count }
    /// The element at `position`, where 0 is the oldest.
    public subscript(position: Int) -> Element {
        storage[(head + position) % storage.count]
    }
}
