import CEGL
import Glibc

/// Reads rectangles of a window's framebuffer object into wl_shm memory
/// (B, G, R, X bytes, rows top to bottom), for `ShmPresenter`.
///
/// Where the driver can write rows top to bottom itself
/// (GL_ANGLE_pack_reverse_row_order) at a row length of the buffer's
/// (ES 3, or GL_NV_pack_subimage), each rectangle is one glReadPixels
/// straight into the mapped buffer: one copy, the same work as the copy an
/// EGL swap makes on the software path. Otherwise GL's bottom-to-top rows
/// go through a small scratch band and are flipped into place: a second
/// copy of every pixel, which made a frame that changes everywhere cost a
/// fifth more than the EGL swap.
struct FrameReadback {
    /// One glReadPixels per rectangle, straight into the buffer. A var so
    /// tests can exercise the flipping fallback on a driver that has both.
    var readsStraightIn: Bool
    /// GL_PACK_ROW_LENGTH and its skips exist (ES 3 or GL_NV_pack_subimage).
    private let packsSubimage: Bool
    private var scratch: [UInt8] = []

    init(context: GraphicsContext) {
        packsSubimage = context.glesMajorVersion >= 3 || context.offersPackSubimage
        readsStraightIn = packsSubimage && context.offersReverseRowReadback
    }

    /// Reads `rects` (top-left pixels, inside the framebuffer) of
    /// `framebuffer`, `height` rows high, into `memory` at `stride`, each
    /// at its own place moved by `shift` (a wall's tile: its part of a
    /// picture that starts left of or above the tile).
    mutating func read(
        _ rects: [PixelRect], of framebuffer: UInt32, height: Int, into memory: UnsafeMutableRawPointer, stride: Int,
        shiftedBy shift: (x: Int, y: Int) = (0, 0)
    ) throws {
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), framebuffer)
        glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 4)
        if packsSubimage {
            glPixelStorei(GLenum(GL_PACK_ROW_LENGTH), 0)
            glPixelStorei(GLenum(GL_PACK_SKIP_ROWS), 0)
            glPixelStorei(GLenum(GL_PACK_SKIP_PIXELS), 0)
        }
        if readsStraightIn {
            // Set for these reads only: RenderTarget.readPixels and an app's
            // own GL expect GL's row order.
            glPixelStorei(GLenum(GL_PACK_REVERSE_ROW_ORDER_ANGLE), 1)
            glPixelStorei(GLenum(GL_PACK_ROW_LENGTH), GLint(stride / 4))
            for rect in rects {
                glReadPixels(
                    GLint(rect.x), GLint(height - rect.y - rect.height), GLsizei(rect.width), GLsizei(rect.height),
                    GLenum(GL_BGRA_EXT), GLenum(GL_UNSIGNED_BYTE),
                    memory + (rect.y + shift.y) * stride + (rect.x + shift.x) * 4)
            }
            glPixelStorei(GLenum(GL_PACK_ROW_LENGTH), 0)
            glPixelStorei(GLenum(GL_PACK_REVERSE_ROW_ORDER_ANGLE), 0)
        } else {
            for rect in rects {
                readFlipping(rect, height: height, into: memory + shift.y * stride + shift.x * 4, stride: stride)
            }
        }
        try checkGL("glReadPixels(wl_shm frame)")
    }

    /// In bands of about 256 KiB, so the flip copies from cache and the
    /// scratch space stays small however large the window.
    private mutating func readFlipping(
        _ rect: PixelRect, height: Int, into memory: UnsafeMutableRawPointer, stride: Int
    ) {
        let rowBytes = rect.width * 4
        let band = max(1, min(rect.height, (256 << 10) / rowBytes))
        if scratch.count < rowBytes * band { scratch = [UInt8](repeating: 0, count: rowBytes * band) }
        scratch.withUnsafeMutableBytes { bytes in
            var top = rect.y
            while top < rect.y + rect.height {
                let rows = min(band, rect.y + rect.height - top)
                glReadPixels(
                    GLint(rect.x), GLint(height - top - rows), GLsizei(rect.width), GLsizei(rows),
                    GLenum(GL_BGRA_EXT), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
                for row in 0..<rows {
                    let source = bytes.baseAddress! + (rows - 1 - row) * rowBytes
                    memcpy(memory + (top + row) * stride + rect.x * 4, source, rowBytes)
                }
                top += rows
            }
        }
    }

    /// Reads `source`'s pixels into a `width` x `height` frame at
    /// `memory` with their top-left at `origin` (which may lie outside the
    /// frame), and makes every pixel they do not reach black: a wall's
    /// tile, its part of the wall's picture and the letterbox bars around it.
    mutating func read(
        _ source: (framebuffer: UInt32, width: Int, height: Int), at origin: (x: Int, y: Int), width: Int,
        height: Int, into memory: UnsafeMutableRawPointer, stride: Int
    ) throws {
        let frame = PixelRect(x: 0, y: 0, width: width, height: height)
        let placed = PixelRect(x: origin.x, y: origin.y, width: source.width, height: source.height)
        let shown = placed.intersection(frame)
        // B, G, R 0 and X 255 in memory order: what GL reads back of an opaque black.
        func black(_ x: Int, _ count: Int, row: Int) {
            guard count > 0 else { return }
            (memory + row * stride + x * 4).initializeMemory(as: UInt32.self, repeating: 0xff00_0000, count: count)
        }
        for row in 0..<height {
            guard let shown, row >= shown.y, row < shown.y + shown.height else {
                black(0, width, row: row)
                continue
            }
            black(0, shown.x, row: row)
            black(shown.x + shown.width, width - shown.x - shown.width, row: row)
        }
        guard let shown else { return }
        let rect = PixelRect(x: shown.x - origin.x, y: shown.y - origin.y, width: shown.width, height: shown.height)
        try read([rect], of: source.framebuffer, height: source.height, into: memory, stride: stride, shiftedBy: origin)
    }
}
