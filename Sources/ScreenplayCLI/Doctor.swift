import Foundation
import Screenplay

@MainActor
enum DoctorRunner {
    static func run(_ command: DoctorCommand) -> Int32 { 0 }
}

@MainActor
final class DemoRunner {
    init(_ command: DemoCommand) {}
    func start() throws {}
}
