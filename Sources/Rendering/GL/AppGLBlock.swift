import CEGL

/// Runs an app's own GLES calls inside Screenplay's frame: the target bound
/// and its viewport set, a plain starting state, and afterwards every piece
/// of GL state an app can change put back, so Screenplay's drawing after
/// the block (and in later frames) sees what it left. Screenplay's
/// renderers set most of what they use per draw, but not all (enabled
/// vertex arrays, a bound vertex array object, sampler objects, pixel
/// store), and an app's block is free to change anything.
package enum AppGLBlock {
    /// What the block draws into.
    package struct Target {
        package var framebuffer: UInt32
        package var pixelWidth: Int
        package var pixelHeight: Int
        package var glesMajorVersion: Int
    }

    /// Runs `body` on `target` and restores the state (also when `body`
    /// throws). Returns what `body` returned and the name of the first GL
    /// error the block left set, if any.
    package static func run<T>(on target: any RenderTarget, context: GraphicsContext, _ body: (Target) throws -> T)
        throws -> (result: T, leftError: String?)
    {
        try target.makeCurrent()
        let snapshot = GLStateSnapshot(glesMajorVersion: context.glesMajorVersion)
        // An error Screenplay left is not the block's.
        _ = drainGLErrors()
        glDisable(GLenum(GL_BLEND))
        // On a partial frame the block is scissored to the repaint region
        // like Screenplay's own drawing, so a block that draws everything
        // still leaves the rest of the buffer as it was.
        applyClip(target)
        glDisable(GLenum(GL_DEPTH_TEST))
        glDisable(GLenum(GL_STENCIL_TEST))
        glDisable(GLenum(GL_CULL_FACE))
        glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        glUseProgram(0)
        defer {
            snapshot.restore()
            keepWindowOpaque(target, context: context)
            _ = drainGLErrors()
        }
        let result = try body(
            Target(
                framebuffer: target.framebufferObject, pixelWidth: target.pixelWidth,
                pixelHeight: target.pixelHeight, glesMajorVersion: context.glesMajorVersion))
        let left = drainGLErrors()
        return (result, left == GLenum(GL_NO_ERROR) ? nil : glErrorName(left))
    }

    /// A window with an alpha channel is shown opaque only while every pixel
    /// keeps alpha 1 (QuadRenderer.beginFrame): whatever alpha the block
    /// wrote, put 1 back.
    private static func keepWindowOpaque(_ target: any RenderTarget, context: GraphicsContext) {
        guard target is WindowSurface, !context.isOpaqueConfig else { return }
        var clear: [GLfloat] = [0, 0, 0, 0]
        glGetFloatv(GLenum(GL_COLOR_CLEAR_VALUE), &clear)
        var mask: [GLboolean] = [1, 1, 1, 1]
        glGetBooleanv(GLenum(GL_COLOR_WRITEMASK), &mask)
        let scissor = glIsEnabled(GLenum(GL_SCISSOR_TEST))
        glDisable(GLenum(GL_SCISSOR_TEST))
        glColorMask(GLboolean(GL_FALSE), GLboolean(GL_FALSE), GLboolean(GL_FALSE), GLboolean(GL_TRUE))
        glClearColor(0, 0, 0, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        glColorMask(mask[0], mask[1], mask[2], mask[3])
        glClearColor(clear[0], clear[1], clear[2], clear[3])
        if scissor == GLboolean(GL_TRUE) { glEnable(GLenum(GL_SCISSOR_TEST)) }
    }
}

/// The GL state of the current context that an app's block can change,
/// read with glGet and written back in dependency order (the vertex array
/// object first: element buffer and attribute arrays belong to it).
package struct GLStateSnapshot {
    private static let toggles: [Int32] = [
        GL_BLEND, GL_SCISSOR_TEST, GL_DEPTH_TEST, GL_STENCIL_TEST, GL_CULL_FACE, GL_DITHER, GL_POLYGON_OFFSET_FILL,
        GL_SAMPLE_ALPHA_TO_COVERAGE, GL_SAMPLE_COVERAGE,
    ]
    private static let toggles3: [Int32] = [GL_RASTERIZER_DISCARD, GL_PRIMITIVE_RESTART_FIXED_INDEX]
    private static let integers: [Int32] = [
        GL_BLEND_SRC_RGB, GL_BLEND_DST_RGB, GL_BLEND_SRC_ALPHA, GL_BLEND_DST_ALPHA, GL_BLEND_EQUATION_RGB,
        GL_BLEND_EQUATION_ALPHA, GL_DEPTH_FUNC, GL_CULL_FACE_MODE, GL_FRONT_FACE, GL_STENCIL_FUNC, GL_STENCIL_REF,
        GL_STENCIL_VALUE_MASK, GL_STENCIL_FAIL, GL_STENCIL_PASS_DEPTH_FAIL, GL_STENCIL_PASS_DEPTH_PASS,
        GL_STENCIL_BACK_FUNC, GL_STENCIL_BACK_REF, GL_STENCIL_BACK_VALUE_MASK, GL_STENCIL_BACK_FAIL,
        GL_STENCIL_BACK_PASS_DEPTH_FAIL, GL_STENCIL_BACK_PASS_DEPTH_PASS, GL_STENCIL_WRITEMASK,
        GL_STENCIL_BACK_WRITEMASK, GL_STENCIL_CLEAR_VALUE, GL_PACK_ALIGNMENT, GL_UNPACK_ALIGNMENT,
        GL_CURRENT_PROGRAM, GL_ARRAY_BUFFER_BINDING, GL_ACTIVE_TEXTURE, GL_RENDERBUFFER_BINDING,
        GL_FRAMEBUFFER_BINDING,
    ]
    private static let integers3: [Int32] = [
        GL_VERTEX_ARRAY_BINDING, GL_ELEMENT_ARRAY_BUFFER_BINDING, GL_READ_FRAMEBUFFER_BINDING,
        GL_PIXEL_PACK_BUFFER_BINDING, GL_PIXEL_UNPACK_BUFFER_BINDING, GL_UNIFORM_BUFFER_BINDING,
        GL_COPY_READ_BUFFER_BINDING, GL_COPY_WRITE_BUFFER_BINDING, GL_TRANSFORM_FEEDBACK_BINDING,
        GL_UNPACK_ROW_LENGTH, GL_UNPACK_SKIP_ROWS, GL_UNPACK_SKIP_PIXELS, GL_UNPACK_IMAGE_HEIGHT,
        GL_UNPACK_SKIP_IMAGES, GL_PACK_ROW_LENGTH, GL_PACK_SKIP_ROWS, GL_PACK_SKIP_PIXELS, GL_READ_BUFFER,
    ]

    private let es3: Bool
    private var enabled: [Int32: Bool] = [:]
    private var values: [Int32: GLint] = [:]
    private var viewport: [GLint] = [0, 0, 0, 0]
    private var scissorBox: [GLint] = [0, 0, 0, 0]
    private var blendColor: [GLfloat] = [0, 0, 0, 0]
    private var clearColor: [GLfloat] = [0, 0, 0, 0]
    private var clearDepth: GLfloat = 1
    private var depthRange: [GLfloat] = [0, 1]
    private var lineWidth: GLfloat = 1
    private var polygonOffset: (factor: GLfloat, units: GLfloat) = (0, 0)
    private var colorMask: [GLboolean] = [1, 1, 1, 1]
    private var depthMask: GLboolean = 1
    /// Per texture unit: the 2D and cube-map textures, and (ES 3) the sampler and 3D/array textures.
    private var units: [(texture2D: GLint, cube: GLint, sampler: GLint, texture3D: GLint, array: GLint)] = []
    /// Per vertex attribute: whether its array is enabled.
    private var attributeArrays: [Bool] = []

    package init(glesMajorVersion: Int) {
        es3 = glesMajorVersion >= 3
        for cap in Self.toggles + (es3 ? Self.toggles3 : []) {
            enabled[cap] = glIsEnabled(GLenum(cap)) == GLboolean(GL_TRUE)
        }
        for name in Self.integers + (es3 ? Self.integers3 : []) { values[name] = Self.integer(name) }
        if !es3 { values[GL_ELEMENT_ARRAY_BUFFER_BINDING] = Self.integer(GL_ELEMENT_ARRAY_BUFFER_BINDING) }
        glGetIntegerv(GLenum(GL_VIEWPORT), &viewport)
        glGetIntegerv(GLenum(GL_SCISSOR_BOX), &scissorBox)
        glGetFloatv(GLenum(GL_BLEND_COLOR), &blendColor)
        glGetFloatv(GLenum(GL_COLOR_CLEAR_VALUE), &clearColor)
        glGetFloatv(GLenum(GL_DEPTH_CLEAR_VALUE), &clearDepth)
        glGetFloatv(GLenum(GL_DEPTH_RANGE), &depthRange)
        glGetFloatv(GLenum(GL_LINE_WIDTH), &lineWidth)
        glGetFloatv(GLenum(GL_POLYGON_OFFSET_FACTOR), &polygonOffset.factor)
        glGetFloatv(GLenum(GL_POLYGON_OFFSET_UNITS), &polygonOffset.units)
        glGetBooleanv(GLenum(GL_COLOR_WRITEMASK), &colorMask)
        glGetBooleanv(GLenum(GL_DEPTH_WRITEMASK), &depthMask)
        let unitCount = min(Int(Self.integer(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS)), 32)
        for unit in 0..<unitCount {
            glActiveTexture(GLenum(GL_TEXTURE0 + Int32(unit)))
            units.append(
                (
                    Self.integer(GL_TEXTURE_BINDING_2D), Self.integer(GL_TEXTURE_BINDING_CUBE_MAP),
                    es3 ? Self.integer(GL_SAMPLER_BINDING) : 0, es3 ? Self.integer(GL_TEXTURE_BINDING_3D) : 0,
                    es3 ? Self.integer(GL_TEXTURE_BINDING_2D_ARRAY) : 0
                ))
        }
        glActiveTexture(GLenum(values[GL_ACTIVE_TEXTURE] ?? GLint(GL_TEXTURE0)))
        let attributeCount = min(Int(Self.integer(GL_MAX_VERTEX_ATTRIBS)), 32)
        for index in 0..<attributeCount {
            var on: GLint = 0
            glGetVertexAttribiv(GLuint(index), GLenum(GL_VERTEX_ATTRIB_ARRAY_ENABLED), &on)
            attributeArrays.append(on != 0)
        }
    }

    private static func integer(_ name: Int32) -> GLint {
        var value: GLint = 0
        glGetIntegerv(GLenum(name), &value)
        return value
    }

    private func value(_ name: Int32) -> GLint { values[name] ?? 0 }
    private func unsigned(_ name: Int32) -> GLuint { GLuint(bitPattern: value(name)) }
    private func enumValue(_ name: Int32) -> GLenum { GLenum(bitPattern: value(name)) }

    package func restore() {
        if es3 {
            // Transform feedback first: binding another one fails while one is active.
            glBindTransformFeedback(GLenum(GL_TRANSFORM_FEEDBACK), unsigned(GL_TRANSFORM_FEEDBACK_BINDING))
            glBindVertexArray(unsigned(GL_VERTEX_ARRAY_BINDING))
        }
        glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), unsigned(GL_ELEMENT_ARRAY_BUFFER_BINDING))
        for (index, on) in attributeArrays.enumerated() {
            if on { glEnableVertexAttribArray(GLuint(index)) } else { glDisableVertexAttribArray(GLuint(index)) }
        }
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), unsigned(GL_ARRAY_BUFFER_BINDING))
        glUseProgram(unsigned(GL_CURRENT_PROGRAM))
        for (unit, binding) in units.enumerated() {
            glActiveTexture(GLenum(GL_TEXTURE0 + Int32(unit)))
            glBindTexture(GLenum(GL_TEXTURE_2D), GLuint(bitPattern: binding.texture2D))
            glBindTexture(GLenum(GL_TEXTURE_CUBE_MAP), GLuint(bitPattern: binding.cube))
            if es3 {
                glBindSampler(GLuint(unit), GLuint(bitPattern: binding.sampler))
                glBindTexture(GLenum(GL_TEXTURE_3D), GLuint(bitPattern: binding.texture3D))
                glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), GLuint(bitPattern: binding.array))
            }
        }
        glActiveTexture(enumValue(GL_ACTIVE_TEXTURE))
        glBindRenderbuffer(GLenum(GL_RENDERBUFFER), unsigned(GL_RENDERBUFFER_BINDING))
        if es3 {
            glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), unsigned(GL_FRAMEBUFFER_BINDING))
            glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), unsigned(GL_READ_FRAMEBUFFER_BINDING))
            let buffers: [(target: Int32, binding: Int32)] = [
                (GL_PIXEL_PACK_BUFFER, GL_PIXEL_PACK_BUFFER_BINDING),
                (GL_PIXEL_UNPACK_BUFFER, GL_PIXEL_UNPACK_BUFFER_BINDING),
                (GL_UNIFORM_BUFFER, GL_UNIFORM_BUFFER_BINDING), (GL_COPY_READ_BUFFER, GL_COPY_READ_BUFFER_BINDING),
                (GL_COPY_WRITE_BUFFER, GL_COPY_WRITE_BUFFER_BINDING),
            ]
            for buffer in buffers { glBindBuffer(GLenum(buffer.target), unsigned(buffer.binding)) }
            for name in [
                GL_UNPACK_ROW_LENGTH, GL_UNPACK_SKIP_ROWS, GL_UNPACK_SKIP_PIXELS, GL_UNPACK_IMAGE_HEIGHT,
                GL_UNPACK_SKIP_IMAGES, GL_PACK_ROW_LENGTH, GL_PACK_SKIP_ROWS, GL_PACK_SKIP_PIXELS,
            ] {
                glPixelStorei(GLenum(name), value(name))
            }
            glReadBuffer(enumValue(GL_READ_BUFFER))
        } else {
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), unsigned(GL_FRAMEBUFFER_BINDING))
        }
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), value(GL_PACK_ALIGNMENT))
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), value(GL_UNPACK_ALIGNMENT))
        for (cap, on) in enabled {
            if on { glEnable(GLenum(cap)) } else { glDisable(GLenum(cap)) }
        }
        glBlendFuncSeparate(
            enumValue(GL_BLEND_SRC_RGB), enumValue(GL_BLEND_DST_RGB), enumValue(GL_BLEND_SRC_ALPHA),
            enumValue(GL_BLEND_DST_ALPHA))
        glBlendEquationSeparate(enumValue(GL_BLEND_EQUATION_RGB), enumValue(GL_BLEND_EQUATION_ALPHA))
        glBlendColor(blendColor[0], blendColor[1], blendColor[2], blendColor[3])
        glDepthFunc(enumValue(GL_DEPTH_FUNC))
        glDepthMask(depthMask)
        glDepthRangef(depthRange[0], depthRange[1])
        glClearDepthf(clearDepth)
        glCullFace(enumValue(GL_CULL_FACE_MODE))
        glFrontFace(enumValue(GL_FRONT_FACE))
        glLineWidth(lineWidth)
        glPolygonOffset(polygonOffset.factor, polygonOffset.units)
        glStencilFuncSeparate(
            GLenum(GL_FRONT), enumValue(GL_STENCIL_FUNC), value(GL_STENCIL_REF), unsigned(GL_STENCIL_VALUE_MASK))
        glStencilFuncSeparate(
            GLenum(GL_BACK), enumValue(GL_STENCIL_BACK_FUNC), value(GL_STENCIL_BACK_REF),
            unsigned(GL_STENCIL_BACK_VALUE_MASK))
        glStencilOpSeparate(
            GLenum(GL_FRONT), enumValue(GL_STENCIL_FAIL), enumValue(GL_STENCIL_PASS_DEPTH_FAIL),
            enumValue(GL_STENCIL_PASS_DEPTH_PASS))
        glStencilOpSeparate(
            GLenum(GL_BACK), enumValue(GL_STENCIL_BACK_FAIL), enumValue(GL_STENCIL_BACK_PASS_DEPTH_FAIL),
            enumValue(GL_STENCIL_BACK_PASS_DEPTH_PASS))
        glStencilMaskSeparate(GLenum(GL_FRONT), unsigned(GL_STENCIL_WRITEMASK))
        glStencilMaskSeparate(GLenum(GL_BACK), unsigned(GL_STENCIL_BACK_WRITEMASK))
        glClearStencil(value(GL_STENCIL_CLEAR_VALUE))
        glColorMask(colorMask[0], colorMask[1], colorMask[2], colorMask[3])
        glClearColor(clearColor[0], clearColor[1], clearColor[2], clearColor[3])
        glViewport(viewport[0], viewport[1], viewport[2], viewport[3])
        glScissor(scissorBox[0], scissorBox[1], scissorBox[2], scissorBox[3])
    }
}
