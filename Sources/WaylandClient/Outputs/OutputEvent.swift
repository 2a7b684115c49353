/// Events of `wl_output` and `zxdg_output_v1` in plain Swift.
package enum OutputEvent: Sendable {
    case geometry(
        x: Int, y: Int, physicalWidth: Int, physicalHeight: Int, make: String, model: String, transform: Int32)
    case mode(width: Int, height: Int, refreshMilliHz: Int, current: Bool, preferred: Bool)
    case scale(Int)
    case name(String)
    case description(String)
    case done
    case logicalPosition(x: Int, y: Int)
    case logicalSize(width: Int, height: Int)
    case xdgName(String)
    case xdgDescription(String)
    case xdgDone
}
