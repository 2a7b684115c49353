/// What the command line asks for.
public enum Invocation: Equatable, Sendable {
    /// Print this help text to standard output and exit 0.
    case help(String)
    /// Print this version string and exit 0.
    case version(String)
    /// `screenplay outputs`
    case outputs(OutputsCommand)
    /// `screenplay present`
    case present(PresentCommand)
    /// `screenplay doctor`
    case doctor(DoctorCommand)
    /// `screenplay demo`
    case demo(DemoCommand)
    /// `screenplay play`
    case play(PlayCommand)
    /// `screenplay power`
    case power(PowerCommand)
    /// `screenplay ctl`
    case ctl(CtlCommand)
}
