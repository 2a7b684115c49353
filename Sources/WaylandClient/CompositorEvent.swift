/// A global the compositor announced: interface name and version.
public struct GlobalInfo: Hashable, Sendable {
    public var name: UInt32
    public var interface: String
    public var version: UInt32
}

/// What happened on the compositor's side, recorded by the listeners and
/// handed to the owner after the batch (`Compositor.takeEvents()`).
package enum CompositorEvent {
    /// An output sent its first complete description (`done`).
    case outputReady(Output)
    /// A reported output's description changed (mode, scale, transform, ...).
    case outputChanged(Output)
    /// A reported output's global went away. Its proxies live until
    /// `releaseRemovedOutputs()`, so the owner can still tear down what
    /// refers to it.
    case outputRemoved(Output)
    /// A global the scenes rely on (layer shell, xdg_wm_base, ...) went away.
    case globalRemoved(GlobalInfo)
    /// The output manager published a new state of its heads (`done`).
    case headsChanged
}
