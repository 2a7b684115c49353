extension PresentCommand.Content {
    var isVideo: Bool {
        if case .video = self { return true }
        return false
    }
}
