/// What a batch of events did to an output, as seen by the app.
package enum OutputChange: Equatable, Sendable {
    case none
    case ready(OutputInfo)
    case changed(old: OutputInfo, new: OutputInfo)
}
