// screenplay-sdl-game: a game that owns its loop and its window, with a
// second screen.
//
//     swift build --product screenplay-sdl-game
//     .build/debug/screenplay-sdl-game
//
// SDL2 opens the game's window on the laptop and runs the loop: keyboard
// (arrow keys move, space changes colour, Escape quits) and any gamepad
// (d-pad moves, A changes colour) through SDL's events, the window drawn
// with OpenGL ES in SDL's own EGL context. Screenplay never gets the main
// thread: the loop polls `EventPump.fileDescriptor` and calls
// `EventPump.processEvents()` (bring your own loop), and every external screen shows
// the same arena, drawn with raw GLES inside `DrawingContext.withGL` (your
// own GL). Screenplay puts SDL's EGL context back after each of its frames;
// the loop checks that it did.
import CSDL2
import Foundation
import Glibc
import Screenplay
import ScreenplayGLES

/// The game: a piece on a grid that moves and changes colour. The laptop's
/// window and every external screen draw this same state.
@MainActor
final class Arena {
    static let columns = 8
    static let rows = 6
    static let background: (Float, Float, Float) = (0x20 / 255, 0x2a / 255, 0x44 / 255)
    static let colours: [(Float, Float, Float)] = [
        (0xe0 / 255, 0xa0 / 255, 0x20 / 255), (0x20 / 255, 0xc0 / 255, 0x60 / 255),
        (0xc0 / 255, 0x30 / 255, 0x80 / 255),
    ]

    private(set) var column = 0
    private(set) var row = 0
    private(set) var colour = 0
    var onChange: [() -> Void] = []

    enum Command { case left, right, up, down, nextColour }

    func apply(_ command: Command) {
        switch command {
        case .left: column = max(0, column - 1)
        case .right: column = min(Self.columns - 1, column + 1)
        case .up: row = max(0, row - 1)
        case .down: row = min(Self.rows - 1, row + 1)
        case .nextColour: colour = (colour + 1) % Self.colours.count
        }
        // One line per command: a sign for scripts and tests.
        FileHandle.standardOutput.write(Data("piece at \(column) \(row) colour \(colour)\n".utf8))
        for body in onChange { body() }
    }

    /// The piece's cell in a drawable of `width` x `height` pixels, in GL's
    /// bottom-up coordinates, inset by an eighth of a cell on each side.
    func pieceRect(width: Int, height: Int) -> (x: Int32, y: Int32, width: Int32, height: Int32) {
        let cellW = width / Self.columns, cellH = height / Self.rows
        let x = column * cellW + cellW / 8
        let topY = row * cellH + cellH / 8
        let h = cellH - cellH / 4
        return (Int32(x), Int32(height - topY - h), Int32(cellW - cellW / 4), Int32(h))
    }
}

/// The arena drawn with raw OpenGL ES: the background cleared, the piece a
/// quad from a program of its own. Used in SDL's context for the laptop's
/// window, and inside Screenplay's `withGL` for the external screens (one
/// painter per context: GL objects belong to the context they were made in).
@MainActor
final class Painter {
    private var program: GLuint = 0
    private var buffer: GLuint = 0
    private var colourLocation: GLint = -1

    func draw(_ arena: Arena, width: Int, height: Int) {
        if program == 0 { build() }
        glViewport(0, 0, GLsizei(width), GLsizei(height))
        let bg = Arena.background
        glClearColor(bg.0, bg.1, bg.2, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        let rect = arena.pieceRect(width: width, height: height)
        // The quad in normalized device coordinates, as a triangle strip.
        let x0 = Float(rect.x) / Float(width) * 2 - 1, x1 = Float(rect.x + rect.width) / Float(width) * 2 - 1
        let y0 = Float(rect.y) / Float(height) * 2 - 1, y1 = Float(rect.y + rect.height) / Float(height) * 2 - 1
        let corners: [GLfloat] = [x0, y0, x1, y0, x0, y1, x1, y1]
        glUseProgram(program)
        let c = Arena.colours[arena.colour]
        glUniform4f(colourLocation, c.0, c.1, c.2, 1)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
        glBufferData(
            GLenum(GL_ARRAY_BUFFER), corners.count * MemoryLayout<GLfloat>.size, corners, GLenum(GL_STREAM_DRAW))
        glEnableVertexAttribArray(0)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
    }

    private func build() {
        let vertex = compile(
            GL_VERTEX_SHADER,
            "attribute vec2 position;\nvoid main() { gl_Position = vec4(position, 0.0, 1.0); }\n")
        let fragment = compile(
            GL_FRAGMENT_SHADER,
            "precision mediump float;\nuniform vec4 colour;\nvoid main() { gl_FragColor = colour; }\n")
        program = glCreateProgram()
        glAttachShader(program, vertex)
        glAttachShader(program, fragment)
        glBindAttribLocation(program, 0, "position")
        glLinkProgram(program)
        var linked: GLint = 0
        glGetProgramiv(program, GLenum(GL_LINK_STATUS), &linked)
        if linked == 0 { fail("the arena's GL program does not link (is this an OpenGL ES 2 driver?)") }
        glDeleteShader(vertex)
        glDeleteShader(fragment)
        colourLocation = glGetUniformLocation(program, "colour")
        glGenBuffers(1, &buffer)
    }

    private func compile(_ stage: Int32, _ source: String) -> GLuint {
        let shader = glCreateShader(GLenum(stage))
        source.withCString { text in
            var pointer: UnsafePointer<GLchar>? = text
            glShaderSource(shader, 1, &pointer, nil)
        }
        glCompileShader(shader)
        var compiled: GLint = 0
        glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &compiled)
        if compiled == 0 { fail("the arena's GL shader does not compile (is this an OpenGL ES 2 driver?)") }
        return shader
    }
}

/// The arena on an external screen. The display link stays paused: the
/// screen draws when it connects and when the game changes.
@MainActor
final class ArenaScene: SceneDelegate {
    let arena: Arena
    let painter: Painter
    init(arena: Arena, painter: Painter) {
        self.arena = arena
        self.painter = painter
    }

    func scene(_ scene: Scene, willConnectTo session: SceneSession) {
        arena.onChange.append { [weak scene] in scene?.setNeedsDisplay() }
        say("showing the arena on \(scene.screen?.name ?? "a screen")")
    }

    func draw(_ scene: Scene, in context: DrawingContext) throws {
        try context.withGL { drawable in
            painter.draw(arena, width: drawable.pixelWidth, height: drawable.pixelHeight)
        }
    }
}

func say(_ message: String) {
    FileHandle.standardError.write(Data("screenplay-sdl-game: \(message)\n".utf8))
}

func fail(_ message: String) -> Never {
    say("error: \(message)")
    exit(1)
}

func sdlError() -> String { String(cString: SDL_GetError()) }

/// The loop: SDL's events, the game, the laptop's window, then Screenplay's
/// pending work; then a wait on Screenplay's descriptor of at most one
/// 60 Hz tick, so SDL's input is read at least that often.
@MainActor
func runGame() {
    // SDL picks X11 first when both are there; this game lives on Wayland.
    let environment = ProcessInfo.processInfo.environment
    if environment["SDL_VIDEODRIVER"] == nil, environment["WAYLAND_DISPLAY"] != nil {
        setenv("SDL_VIDEODRIVER", "wayland", 1)
    }
    SDL_SetMainReady()
    guard SDL_Init(UInt32(SDL_INIT_VIDEO | SDL_INIT_GAMECONTROLLER)) == 0 else {
        fail("SDL_Init: \(sdlError()); run inside a Wayland session (WAYLAND_DISPLAY) with libsdl2 installed")
    }
    defer { SDL_Quit() }
    // OpenGL ES, as the external screens: the same painter code for both.
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, Int32(SDL_GL_CONTEXT_PROFILE_ES.rawValue))
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 2)
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0)
    let anywhere = Int32(bitPattern: 0x1FFF_0000)  // SDL_WINDOWPOS_UNDEFINED, a macro Swift cannot import
    guard
        let window = SDL_CreateWindow(
            "Screenplay SDL game", anywhere, anywhere, 640, 480,
            SDL_WINDOW_OPENGL.rawValue | SDL_WINDOW_RESIZABLE.rawValue)
    else { fail("SDL_CreateWindow: \(sdlError())") }
    defer { SDL_DestroyWindow(window) }
    guard let glContext = SDL_GL_CreateContext(window) else {
        fail("SDL_GL_CreateContext (OpenGL ES 2): \(sdlError()); install Mesa's EGL and GLES (libegl1, libgles2)")
    }
    defer { SDL_GL_DeleteContext(glContext) }
    // Never block in a swap: the loop paces itself and must keep serving Screenplay.
    SDL_GL_SetSwapInterval(0)
    let sdlEGLContext = eglGetCurrentContext()

    let arena = Arena()
    let windowPainter = Painter()
    let screenPainter = Painter()
    let app: Application
    do {
        app = try Application()
    } catch {
        fail("\(error)")
    }
    app.onScreenConnect = { screen in say("screen \(screen.name) connected (\(screen.classification.kind))") }
    app.registerSceneAccessory(
        .externalNonInteractive(
            sceneConfiguration: SceneConfiguration(name: "arena") {
                ArenaScene(arena: arena, painter: screenPainter)
            }))

    var windowNeedsDraw = true
    arena.onChange.append { windowNeedsDraw = true }
    var controllers: [OpaquePointer] = []
    var running = true
    var descriptor = pollfd(fd: EventPump.fileDescriptor, events: Int16(POLLIN), revents: 0)
    var event = SDL_Event()
    while running {
        while SDL_PollEvent(&event) != 0 {
            switch SDL_EventType(event.type) {
            case SDL_QUIT:
                running = false
            case SDL_KEYDOWN:
                switch Int(event.key.keysym.sym) {
                case Int(SDLK_LEFT.rawValue): arena.apply(.left)
                case Int(SDLK_RIGHT.rawValue): arena.apply(.right)
                case Int(SDLK_UP.rawValue): arena.apply(.up)
                case Int(SDLK_DOWN.rawValue): arena.apply(.down)
                case Int(SDLK_SPACE.rawValue): arena.apply(.nextColour)
                case Int(SDLK_ESCAPE.rawValue): running = false
                default: break
                }
            case SDL_CONTROLLERDEVICEADDED:
                if let controller = SDL_GameControllerOpen(event.cdevice.which) {
                    controllers.append(controller)
                    say("gamepad: \(SDL_GameControllerName(controller).map { String(cString: $0) } ?? "unnamed")")
                }
            case SDL_CONTROLLERBUTTONDOWN:
                switch SDL_GameControllerButton(Int32(event.cbutton.button)) {
                case SDL_CONTROLLER_BUTTON_DPAD_LEFT: arena.apply(.left)
                case SDL_CONTROLLER_BUTTON_DPAD_RIGHT: arena.apply(.right)
                case SDL_CONTROLLER_BUTTON_DPAD_UP: arena.apply(.up)
                case SDL_CONTROLLER_BUTTON_DPAD_DOWN: arena.apply(.down)
                case SDL_CONTROLLER_BUTTON_A: arena.apply(.nextColour)
                default: break
                }
            case SDL_WINDOWEVENT:
                windowNeedsDraw = true
            default:
                break
            }
        }
        if windowNeedsDraw {
            windowNeedsDraw = false
            var width: Int32 = 0
            var height: Int32 = 0
            SDL_GL_GetDrawableSize(window, &width, &height)
            windowPainter.draw(arena, width: Int(width), height: Int(height))
            SDL_GL_SwapWindow(window)
        }
        EventPump.processEvents()
        // Screenplay drew with its own EGL context; SDL's must be current again.
        if eglGetCurrentContext() != sdlEGLContext {
            fail("Screenplay left another EGL context current than SDL's after processEvents()")
        }
        _ = poll(&descriptor, 1, EventPump.timeoutMilliseconds(atMost: 16))
    }
    for controller in controllers { SDL_GameControllerClose(controller) }
    app.shutdown()
    say("stopped")
}

MainActor.assumeIsolated { runGame() }
