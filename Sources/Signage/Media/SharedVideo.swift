import Screenplay

/// One decoder for the panels that show the same video at the same turn
/// (one playlist mirrored on several screens). Panels load their next item
/// ahead of its turn, at about the same time: a video item joins the
/// player of the same file still waiting for its turn, and gets one of its
/// own once that player has started (a panel plugged in later, the next
/// pass of the playlist), as it did before sharing. An item that joined
/// but whose turn comes later (an override of the same file, another
/// playlist) wants the video from its start: it leaves for a player of its
/// own (`isLate`). Alone, a panel draws straight from libmpv as ever; with
/// others it draws the mirror's kept picture, rendered once per video
/// frame for all of them.
@MainActor
final class SharedVideo {
    struct Key: Hashable {
        var path: String
        var loops: Bool
    }

    let mirror: MirroredVideo
    var player: VideoPlayer { mirror.player }
    private let key: Key
    /// The panels' media holding it, in the order they joined, and whether each is on screen.
    private var members: [(id: ObjectIdentifier, scene: Scene?, started: Bool)] = []
    private var onPicture: [ObjectIdentifier: () -> Void] = [:]
    private var onFailure: [ObjectIdentifier: (String) -> Void] = [:]

    /// The kept picture each member drew last, and when.
    private var drawn: [ObjectIdentifier: (serial: Int, at: Double)] = [:]
    /// Kept at the wall clock's position (a wall's tile), from the first turn.
    private(set) var clocked: ClockedVideo?
    /// When the first member's turn came (monotonic seconds).
    private var startedAt: Double?
    /// The member stepping the player, and when it last asked.
    private var pacer: ObjectIdentifier?
    private var pacerAskedAt = 0.0
    /// How long a pacer may go without asking before another panel takes
    /// over: a panel under an override, or stalled, stops asking.
    static let pacerSilence = 0.5
    /// Players not started yet, which a panel's video item of the same file joins.
    private static var waiting: [Key: SharedVideo] = [:]
    /// How much later than the first a member's turn may come and still
    /// count as the same turn: panels switch on the same clock boundary.
    static let sameTurn = 1.0

    private init(key: Key, scene: Scene) throws(VideoError) {
        self.key = key
        mirror = MirroredVideo(
            player: try VideoPlayer(path: key.path, scene: scene, loops: key.loops, startsPaused: true))
        player.onPicture = { [weak self] in
            for tell in self?.onPicture.values.map({ $0 }) ?? [] { tell() }
        }
        player.onFailure = { [weak self] reason in
            for tell in self?.onFailure.values.map({ $0 }) ?? [] { tell(reason) }
        }
    }

    /// The waiting player of `path`, or a new one made on `scene`'s context.
    /// `alone`: a player of its own that no other item joins.
    static func join(
        path: String, loops: Bool, scene: Scene, member: AnyObject, alone: Bool = false,
        onPicture: @escaping () -> Void, onFailure: @escaping (String) -> Void
    ) throws(VideoError) -> SharedVideo {
        let key = Key(path: path, loops: loops)
        let shared: SharedVideo
        if !alone, let open = waiting[key] {
            shared = open
        } else {
            shared = try SharedVideo(key: key, scene: scene)
            if !alone { waiting[key] = shared }
        }
        let id = ObjectIdentifier(member)
        shared.members.append((id, scene, false))
        shared.onPicture[id] = onPicture
        shared.onFailure[id] = onFailure
        return shared
    }

    /// More than one panel shows it: they draw the mirror's kept picture.
    var isMirrored: Bool { members.count > 1 }

    /// `member`'s turn has come: the player plays from the first turn on,
    /// and no later item joins it. With `slotStart` (a wall's tile) the
    /// first turn puts the video where the wall clock says, and keeps it there.
    func start(_ member: AnyObject, slotStart: (@MainActor () -> Double?)? = nil) {
        let id = ObjectIdentifier(member)
        guard let index = members.firstIndex(where: { $0.id == id }) else { return }
        members[index].started = true
        if Self.waiting[key] === self { Self.waiting[key] = nil }
        if startedAt == nil {
            startedAt = monotonicSeconds()
            clocked = slotStart.map { ClockedVideo(player: player, loops: key.loops, slotStart: $0) }
            clocked?.begin()
        }
        player.play()
    }

    /// Whether `member`'s turn came so long after the first that it is
    /// another turn: the video has played on without it.
    func isLate(_ member: AnyObject) -> Bool {
        guard let startedAt, members.count > 1 else { return false }
        return monotonicSeconds() - startedAt > Self.sameTurn
    }

    /// Whether `member`'s display link steps the player now: asked by
    /// every member each refresh, it stays with the panel that has it while
    /// that one keeps asking, and passes to another panel on screen once
    /// it has not for `pacerSilence`.
    func isPacer(_ member: AnyObject) -> Bool {
        let id = ObjectIdentifier(member)
        guard members.contains(where: { $0.id == id && $0.started && $0.scene != nil }) else { return false }
        let now = monotonicSeconds()
        guard pacer == id || pacer == nil || now - pacerAskedAt > Self.pacerSilence else { return false }
        (pacer, pacerAskedAt) = (id, now)
        return true
    }

    /// `member` drew kept picture `serial`.
    func noteDrawn(_ member: AnyObject, serial: Int) {
        drawn[ObjectIdentifier(member)] = (serial, monotonicSeconds())
    }

    /// Whether `member` may render the next picture: every other member
    /// on screen that drew within `pacerSilence` has drawn the kept one.
    /// One that stopped drawing (a hidden output, an override) holds no one up.
    func mayAdvance(_ member: AnyObject) -> Bool {
        let id = ObjectIdentifier(member), now = monotonicSeconds(), serial = mirror.serial
        return members.allSatisfy { other in
            guard other.id != id, other.started, other.scene != nil, let last = drawn[other.id],
                now - last.at <= Self.pacerSilence
            else { return true }
            return last.serial == serial
        }
    }

    /// `member` is done with it; the player closes with the last.
    func leave(_ member: AnyObject) {
        let id = ObjectIdentifier(member)
        members.removeAll { $0.id == id }
        drawn[id] = nil
        if pacer == id { pacer = nil }
        onPicture[id] = nil
        onFailure[id] = nil
        guard members.isEmpty else { return }
        if Self.waiting[key] === self { Self.waiting[key] = nil }
        mirror.close()
    }
}
