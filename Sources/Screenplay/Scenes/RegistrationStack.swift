/// Which registration is presented: the most recent one; when it is
/// unregistered, the one before takes over. A disabled registration keeps
/// its place and shows nothing (disabling means "stop showing my content",
/// not "show older content instead"). Pure, for unit tests.
package struct RegistrationStack: Sendable, Equatable {
    package struct Entry: Sendable, Equatable {
        package var id: Int
        package var isEnabled: Bool
    }
    package private(set) var entries: [Entry] = []
    package init() {}

    package mutating func register(_ id: Int) { entries.append(Entry(id: id, isEnabled: true)) }
    package mutating func unregister(_ id: Int) { entries.removeAll { $0.id == id } }
    package mutating func setEnabled(_ id: Int, _ enabled: Bool) {
        if let i = entries.firstIndex(where: { $0.id == id }) { entries[i].isEnabled = enabled }
    }

    /// The registration whose scenes should be connected, if any.
    package var presented: Int? {
        guard let top = entries.last, top.isEnabled else { return nil }
        return top.id
    }
}
