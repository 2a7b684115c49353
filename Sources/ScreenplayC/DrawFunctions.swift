// The drawing helpers (screenplay.h: "Drawing helpers", "Pictures"). The
// caller's draw callback runs inside `DrawingContext.withGL`, so its own
// GL draws straight into the scene; a helper called from there first puts
// back the state the block started with (Screenplay's renderers expect
// their own state, not the caller's vertex arrays or blending), draws,
// and then returns the caller's GL state as it was.
internal import CScreenplay
import Rendering
import Screenplay

/// One draw callback's `screenplay_draw` handle: valid until it returns.
@MainActor
final class CDraw: HandleObject {
    static let kind = "draw"
    static let advice = "use the handle your draw callback got, during that callback only"
    private var context: DrawingContext?
    let drawable: GLDrawable
    private let start: GLStateSnapshot
    private(set) var handle: OpaquePointer!

    init(_ context: DrawingContext, _ drawable: GLDrawable) {
        self.context = context
        self.drawable = drawable
        start = GLStateSnapshot(glesMajorVersion: drawable.glesMajorVersion)
        handle = Handles.shared.add(self)
    }

    func end() {
        context = nil
        Handles.shared.remove(handle)
    }

    /// Runs a helper between the caller's GL state and back.
    func helper<T>(_ function: String, _ body: (DrawingContext) throws -> T) throws(Failure) -> T {
        guard let context else {
            throw Failure(Int32(SCREENPLAY_ERROR_NOT_IN_DRAW), "\(function): the draw is over; \(Self.advice)")
        }
        let callers = GLStateSnapshot(glesMajorVersion: drawable.glesMajorVersion)
        start.restore()
        defer { callers.restore() }
        do {
            return try body(context)
        } catch {
            throw Failure(
                Int32(SCREENPLAY_ERROR_DRAW_FAILED),
                "\(function): \(error) (see `screenplay doctor` for the GL driver; a GL error your own calls left set before the helper is reported here too)"
            )
        }
    }
}

@MainActor
private func draw(_ handle: OpaquePointer?, _ function: String) throws(Failure) -> CDraw {
    let found: CDraw
    do {
        found = try Handles.shared.get(handle, CDraw.self, function)
    } catch  where error.code == Int32(SCREENPLAY_ERROR_INVALID_HANDLE) {
        throw Failure(Int32(SCREENPLAY_ERROR_NOT_IN_DRAW), error.message)
    }
    return found
}

/// 0xRRGGBB as a colour.
private func color(_ rgb: UInt32) -> RGBColor { RGBColor(hex: rgb & 0xff_ffff) }

/// The size drawn.
@_cdecl("screenplay_draw_size")
public func screenplayDrawSize(
    _ handle: OpaquePointer?, _ width: UnsafeMutablePointer<Int32>?, _ height: UnsafeMutablePointer<Int32>?
) -> Int32 {
    nonisolated(unsafe) let handle = handle
    nonisolated(unsafe) let width = width
    nonisolated(unsafe) let height = height
    return entry("screenplay_draw_size") { () throws(Failure) in
        let made = try draw(handle, "screenplay_draw_size")
        let size = (made.drawable.pixelWidth, made.drawable.pixelHeight)
        try storePair(size, width, height, "screenplay_draw_size", ("width", "height"))
    }
}

/// The framebuffer bound for the draw and the GLES version.
@_cdecl("screenplay_draw_gl_target")
public func screenplayDrawGLTarget(
    _ handle: OpaquePointer?, _ framebuffer: UnsafeMutablePointer<UInt32>?, _ gles: UnsafeMutablePointer<Int32>?
) -> Int32 {
    nonisolated(unsafe) let handle = handle
    nonisolated(unsafe) let framebuffer = framebuffer
    nonisolated(unsafe) let gles = gles
    return entry("screenplay_draw_gl_target") { () throws(Failure) in
        let made = try draw(handle, "screenplay_draw_gl_target")
        guard let gles else { throw Failure.null("screenplay_draw_gl_target", "gles_major") }
        try store(made.drawable.framebuffer, framebuffer, "screenplay_draw_gl_target", "framebuffer")
        gles.pointee = Int32(made.drawable.glesMajorVersion)
    }
}

/// Clears the frame.
@_cdecl("screenplay_draw_clear")
public func screenplayDrawClear(_ handle: OpaquePointer?, _ rgb: UInt32) -> Int32 {
    nonisolated(unsafe) let handle = handle
    return entry("screenplay_draw_clear") { () throws(Failure) in
        try draw(handle, "screenplay_draw_clear").helper("screenplay_draw_clear") { try $0.clear(color(rgb)) }
    }
}

/// Fills a rectangle.
@_cdecl("screenplay_draw_fill")
public func screenplayDrawFill(
    _ handle: OpaquePointer?, _ x: Int32, _ y: Int32, _ width: Int32, _ height: Int32, _ rgb: UInt32
) -> Int32 {
    nonisolated(unsafe) let handle = handle
    return entry("screenplay_draw_fill") { () throws(Failure) in
        try draw(handle, "screenplay_draw_fill").helper("screenplay_draw_fill") {
            try $0.fill(x: Int(x), y: Int(y), width: Int(width), height: Int(height), color: color(rgb))
        }
    }
}

/// Draws text.
@_cdecl("screenplay_draw_text")
public func screenplayDrawText(
    _ handle: OpaquePointer?, _ text: UnsafePointer<CChar>?, _ x: Int32, _ y: Int32, _ maxWidth: Int32,
    _ pixelHeight: Int32, _ rgb: UInt32, _ align: Int32, _ font: UnsafePointer<CChar>?,
    _ drawnHeight: UnsafeMutablePointer<Int32>?
) -> Int32 {
    nonisolated(unsafe) let handle = handle
    nonisolated(unsafe) let text = text
    nonisolated(unsafe) let font = font
    nonisolated(unsafe) let drawnHeight = drawnHeight
    return entry("screenplay_draw_text") { () throws(Failure) in
        let function = "screenplay_draw_text"
        let made = try draw(handle, function)
        let body = try string(text, function, "text")
        let family = font == nil ? "Sans" : try string(font, function, "font")
        let alignment: TextAlign
        switch align {
        case Int32(SCREENPLAY_ALIGN_LEFT): alignment = .left
        case Int32(SCREENPLAY_ALIGN_CENTER): alignment = .center
        case Int32(SCREENPLAY_ALIGN_RIGHT): alignment = .right
        default:
            throw Failure(
                Int32(SCREENPLAY_ERROR_INVALID_ARGUMENT),
                "\(function): align \(align) is none of SCREENPLAY_ALIGN_LEFT, _CENTER, _RIGHT")
        }
        guard pixelHeight > 0, maxWidth >= 0 else {
            throw Failure(
                Int32(SCREENPLAY_ERROR_INVALID_ARGUMENT),
                "\(function): pixel_height \(pixelHeight) and max_width \(maxWidth): give a positive height and a width of 0 (to the right edge) or more"
            )
        }
        let width = maxWidth > 0 ? Int(maxWidth) : made.drawable.pixelWidth - Int(x)
        let drawn = try made.helper(function) {
            try $0.drawText(
                body, x: Int(x), y: Int(y), maxWidth: max(1, width), pixelHeight: Int(pixelHeight),
                color: color(rgb), alignment: alignment, font: family)
        }
        drawnHeight?.pointee = Int32(clamping: drawn)
    }
}

/// A picture behind a `screenplay_picture` handle.
@MainActor
final class CPicture: HandleObject {
    static let kind = "picture"
    static let advice = "use the handle screenplay_picture_load gave, until screenplay_picture_destroy"
    let picture: Picture
    weak var app: CApp?
    private(set) var handle: OpaquePointer!

    init(_ picture: Picture, app: CApp) {
        self.picture = picture
        self.app = app
        handle = Handles.shared.add(self)
    }
}

/// Draws a picture into a rectangle.
@_cdecl("screenplay_draw_picture")
public func screenplayDrawPicture(
    _ handle: OpaquePointer?, _ picture: OpaquePointer?, _ x: Int32, _ y: Int32, _ width: Int32, _ height: Int32
) -> Int32 {
    nonisolated(unsafe) let handle = handle
    nonisolated(unsafe) let picture = picture
    return entry("screenplay_draw_picture") { () throws(Failure) in
        let made = try draw(handle, "screenplay_draw_picture")
        let image = try Handles.shared.get(picture, CPicture.self, "screenplay_draw_picture").picture
        try made.helper("screenplay_draw_picture") {
            try $0.draw(image, x: Int(x), y: Int(y), width: Int(width), height: Int(height))
        }
    }
}

/// Draws a picture fitted.
@_cdecl("screenplay_draw_picture_fitted")
public func screenplayDrawPictureFitted(_ handle: OpaquePointer?, _ picture: OpaquePointer?, _ background: UInt32)
    -> Int32
{
    nonisolated(unsafe) let handle = handle
    nonisolated(unsafe) let picture = picture
    return entry("screenplay_draw_picture_fitted") { () throws(Failure) in
        let made = try draw(handle, "screenplay_draw_picture_fitted")
        let image = try Handles.shared.get(picture, CPicture.self, "screenplay_draw_picture_fitted").picture
        try made.helper("screenplay_draw_picture_fitted") { try $0.drawFitted(image, background: color(background)) }
    }
}

/// Loads a picture.
@_cdecl("screenplay_picture_load")
public func screenplayPictureLoad(
    _ app: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    nonisolated(unsafe) let app = app
    nonisolated(unsafe) let path = path
    nonisolated(unsafe) let out = out
    return entry("screenplay_picture_load") { () throws(Failure) in
        let function = "screenplay_picture_load"
        let made = try liveApp(app, function)
        let file = try string(path, function, "path")
        guard let out else { throw Failure.null(function, "picture") }
        do {
            let picture = CPicture(try Picture.load(path: file), app: made)
            made.pictures.append(picture)
            out.pointee = picture.handle
        } catch {
            throw Failure(Int32(SCREENPLAY_ERROR_FILE), "\(function): \(error)")
        }
    }
}

/// A picture's size.
@_cdecl("screenplay_picture_size")
public func screenplayPictureSize(
    _ handle: OpaquePointer?, _ width: UnsafeMutablePointer<Int32>?, _ height: UnsafeMutablePointer<Int32>?
) -> Int32 {
    nonisolated(unsafe) let handle = handle
    nonisolated(unsafe) let width = width
    nonisolated(unsafe) let height = height
    return entry("screenplay_picture_size") { () throws(Failure) in
        let picture = try Handles.shared.get(handle, CPicture.self, "screenplay_picture_size").picture
        try storePair((picture.width, picture.height), width, height, "screenplay_picture_size", ("width", "height"))
    }
}

/// Frees a picture.
@_cdecl("screenplay_picture_destroy")
public func screenplayPictureDestroy(_ handle: OpaquePointer?) -> Int32 {
    nonisolated(unsafe) let handle = handle
    return entry("screenplay_picture_destroy") { () throws(Failure) in
        let made = try Handles.shared.get(handle, CPicture.self, "screenplay_picture_destroy")
        made.app?.pictures.removeAll { $0 === made }
        Handles.shared.remove(made.handle)
    }
}
