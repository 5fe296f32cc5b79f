// A retained layer for the ImGui panels: the draw data is rasterised into an
// offscreen texture, and from one frame to the next only the rectangles where
// it changed are cleared and drawn again. Every frame the layer is blended
// over the picture: by GL (one quad per window area), or, with a software
// GL, on the CPU into the frame before its upload (from a CPU copy of the
// layer that is updated by reading back only the redrawn rectangles).
//
// Why: under a software GL (llvmpipe, the Xvfb case) the panels cost per
// pixel they cover, every frame, on the same cores as the simulation: the
// editor drawn directly took 5-7 ms a frame (and GL's blend of a still layer
// still ~2.5 ms). A still panel now costs a SIMD blend of its area, and a
// changing value only its own rectangle.
//
// Exactness: ImGui's backend blends src-alpha/one-minus-src-alpha for colour
// and one/one-minus-src-alpha for alpha. Drawn into a transparent target that
// yields premultiplied colour with "over" alpha; compositing that with
// one/one-minus-src-alpha gives the direct result (associativity of "over"),
// up to 8-bit rounding.
//
// What counts as changed: per draw list (matched by position in the draw
// data), a vertex whose position, uv or colour differs, or the vertices
// between the common prefix and suffix when the count differs; every
// triangle touching one is dirty, at its old and its new place. A list whose
// commands (clip rects, textures) differ, a list that appears or disappears,
// is dirty as a whole. Commands that draw another texture than the font atlas
// (thumbnails, whose pixels can change under the same vertices) are redrawn
// every frame. A new size, display rectangle or font atlas redraws it all.
#include "ImGuiShim.h"
#include <imgui.h>
#define GL_GLEXT_PROTOTYPES 1
#include <SDL_opengl.h>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace {

struct IRect {
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // pixels, top-left origin, exclusive max
    bool empty() const { return x1 <= x0 || y1 <= y0; }
    long area() const { return empty() ? 0 : long(x1 - x0) * long(y1 - y0); }
    IRect united(const IRect &o) const {
        if (empty()) return o;
        if (o.empty()) return *this;
        return {std::min(x0, o.x0), std::min(y0, o.y0), std::max(x1, o.x1), std::max(y1, o.y1)};
    }
    IRect intersected(const IRect &o) const {
        IRect r{std::max(x0, o.x0), std::max(y0, o.y0), std::min(x1, o.x1), std::min(y1, o.y1)};
        return r.empty() ? IRect{} : r;
    }
    bool touches(const IRect &o, int gap) const {
        return !empty() && !o.empty() && x0 <= o.x1 + gap && o.x0 <= x1 + gap && y0 <= o.y1 + gap && o.y0 <= y1 + gap;
    }
};

struct Cmd {
    ImVec4 clip;
    ImTextureID tex;
    unsigned vtxOffset, idxOffset, elemCount;
    bool callback;
};

struct List {
    std::vector<ImDrawVert> vtx;
    std::vector<ImDrawIdx> idx;
    std::vector<Cmd> cmds;
};

struct Frame {
    std::vector<List> lists;
    ImVec2 pos{0, 0}, scale{1, 1};
    int fbw = 0, fbh = 0;
    ImTextureID font = 0;
};

struct Cache {
    bool enabled = true;
    bool ready = false;        // GL objects exist
    bool valid = false;        // the texture holds `last`
    GLuint fbo = 0, tex = 0, program = 0, blit = 0, vao = 0, vbo = 0, ebo = 0;
    GLint locProj = -1, locTex = -1, locBlitProj = -1, locBlitTex = -1;
    int texW = 0, texH = 0;
    Frame last;
    std::vector<IRect> dirty;
    std::vector<ImDrawIdx> scratch;
    std::vector<IRect> boxes;   // where the layer has content (disjoint)
    // The layer in CPU memory (premultiplied RGBA, GL row order: row 0 at
    // the bottom), kept for compositing on the CPU: only redrawn rectangles
    // are read back.
    std::vector<uint8_t> mirror;
    bool mirrorValid = false;
    long dirtyPixels = 0, compositePixels = 0;
};
Cache cache;

const char *kVertex = R"(#version 330 core
layout (location = 0) in vec2 Position;
layout (location = 1) in vec2 UV;
layout (location = 2) in vec4 Color;
uniform mat4 ProjMtx;
out vec2 Frag_UV;
out vec4 Frag_Color;
void main() {
    Frag_UV = UV;
    Frag_Color = Color;
    gl_Position = ProjMtx * vec4(Position.xy, 0, 1);
})";
// ImGui's shader: texture times vertex colour.
const char *kFragment = R"(#version 330 core
in vec2 Frag_UV;
in vec4 Frag_Color;
uniform sampler2D Texture;
layout (location = 0) out vec4 Out_Color;
void main() { Out_Color = Frag_Color * texture(Texture, Frag_UV.st); })";
// The composite: the layer's texel as it is (premultiplied). A plain texture
// copy in rectangles is what llvmpipe's fast "linear" path recognises; any
// other arithmetic in this shader makes it ~3x slower per pixel.
const char *kBlitFragment = R"(#version 330 core
in vec2 Frag_UV;
uniform sampler2D Texture;
layout (location = 0) out vec4 Out_Color;
void main() { Out_Color = texture(Texture, Frag_UV.st); })";

GLuint compile(GLenum type, const char *src) {
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, nullptr);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) { glDeleteShader(s); return 0; }
    return s;
}

GLuint link(const char *fragment) {
    GLuint v = compile(GL_VERTEX_SHADER, kVertex), f = compile(GL_FRAGMENT_SHADER, fragment);
    if (!v || !f) { if (v) glDeleteShader(v); if (f) glDeleteShader(f); return 0; }
    GLuint p = glCreateProgram();
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    glDeleteShader(v);
    glDeleteShader(f);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) { glDeleteProgram(p); return 0; }
    return p;
}

bool createObjects() {
    cache.program = link(kFragment);
    cache.blit = link(kBlitFragment);
    if (!cache.program || !cache.blit) {
        if (cache.program) glDeleteProgram(cache.program);
        if (cache.blit) glDeleteProgram(cache.blit);
        cache.program = cache.blit = 0;
        return false;
    }
    cache.locProj = glGetUniformLocation(cache.program, "ProjMtx");
    cache.locTex = glGetUniformLocation(cache.program, "Texture");
    cache.locBlitProj = glGetUniformLocation(cache.blit, "ProjMtx");
    cache.locBlitTex = glGetUniformLocation(cache.blit, "Texture");
    glGenVertexArrays(1, &cache.vao);
    glGenBuffers(1, &cache.vbo);
    glGenBuffers(1, &cache.ebo);
    glBindVertexArray(cache.vao);
    glBindBuffer(GL_ARRAY_BUFFER, cache.vbo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, cache.ebo);
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(ImDrawVert), (void *)offsetof(ImDrawVert, pos));
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, sizeof(ImDrawVert), (void *)offsetof(ImDrawVert, uv));
    glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(ImDrawVert), (void *)offsetof(ImDrawVert, col));
    glBindVertexArray(0);
    glGenFramebuffers(1, &cache.fbo);
    glGenTextures(1, &cache.tex);
    cache.ready = true;
    return true;
}

void destroyObjects() {
    if (!cache.ready) return;
    glDeleteFramebuffers(1, &cache.fbo);
    glDeleteTextures(1, &cache.tex);
    glDeleteBuffers(1, &cache.vbo);
    glDeleteBuffers(1, &cache.ebo);
    glDeleteVertexArrays(1, &cache.vao);
    glDeleteProgram(cache.program);
    glDeleteProgram(cache.blit);
    cache = Cache{cache.enabled};
}

bool resizeTarget(int w, int h) {
    if (cache.texW == w && cache.texH == h) return true;
    glBindTexture(GL_TEXTURE_2D, cache.tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindFramebuffer(GL_FRAMEBUFFER, cache.fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, cache.tex, 0);
    bool ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    cache.texW = ok ? w : 0;
    cache.texH = ok ? h : 0;
    cache.valid = false;
    return ok;
}

Frame snapshot(const ImDrawData *d, int fbw, int fbh) {
    Frame f;
    f.pos = d->DisplayPos;
    f.scale = d->FramebufferScale;
    f.fbw = fbw;
    f.fbh = fbh;
    f.font = ImGui::GetIO().Fonts->TexID;
    f.lists.resize(d->CmdListsCount);
    for (int i = 0; i < d->CmdListsCount; i++) {
        const ImDrawList *l = d->CmdLists[i];
        List &o = f.lists[i];
        o.vtx.assign(l->VtxBuffer.Data, l->VtxBuffer.Data + l->VtxBuffer.Size);
        o.idx.assign(l->IdxBuffer.Data, l->IdxBuffer.Data + l->IdxBuffer.Size);
        o.cmds.reserve(l->CmdBuffer.Size);
        for (const ImDrawCmd &c : l->CmdBuffer)
            o.cmds.push_back({c.ClipRect, c.TextureId, c.VtxOffset, c.IdxOffset, c.ElemCount, c.UserCallback != nullptr});
    }
    return f;
}

// A command's clip rectangle in framebuffer pixels, rounded as the OpenGL3
// backend rounds its scissor box.
IRect clipPixels(const Frame &f, const ImVec4 &c) {
    float x0 = (c.x - f.pos.x) * f.scale.x, y0 = (c.y - f.pos.y) * f.scale.y;
    float x1 = (c.z - f.pos.x) * f.scale.x, y1 = (c.w - f.pos.y) * f.scale.y;
    if (x1 <= x0 || y1 <= y0) return {};
    int sx = (int)x0, sw = (int)(x1 - x0);
    int syGL = (int)(f.fbh - y1), sh = (int)(y1 - y0);
    IRect r{sx, f.fbh - (syGL + sh), sx + sw, f.fbh - syGL};
    return r.intersected({0, 0, f.fbw, f.fbh});
}

// Pixels a triangle can touch (its vertices' box, one pixel of slack), within its clip.
IRect triangleBox(const Frame &f, const ImDrawVert *v, const ImDrawIdx *t, const IRect &clip) {
    float x0 = v[t[0]].pos.x, x1 = x0, y0 = v[t[0]].pos.y, y1 = y0;
    for (int k = 1; k < 3; k++) {
        x0 = std::min(x0, v[t[k]].pos.x); x1 = std::max(x1, v[t[k]].pos.x);
        y0 = std::min(y0, v[t[k]].pos.y); y1 = std::max(y1, v[t[k]].pos.y);
    }
    IRect r{(int)((x0 - f.pos.x) * f.scale.x) - 1, (int)((y0 - f.pos.y) * f.scale.y) - 1,
            (int)((x1 - f.pos.x) * f.scale.x) + 2, (int)((y1 - f.pos.y) * f.scale.y) + 2};
    return r.intersected(clip);
}

// Adds a box to the dirty set, growing the last box when that costs little.
void addDirty(const IRect &r) {
    if (r.empty()) return;
    if (!cache.dirty.empty()) {
        IRect &b = cache.dirty.back();
        IRect u = b.united(r);
        if (u.area() <= b.area() + r.area() + 256) { b = u; return; }
    }
    cache.dirty.push_back(r);
}

// Every triangle of `l` for which `touched(vertex)` holds, or every one when `all`.
template <typename Touched>
void addTriangles(const Frame &f, const List &l, bool all, Touched touched) {
    for (const Cmd &c : l.cmds) {
        if (c.callback) continue;
        IRect clip = clipPixels(f, c.clip);
        if (clip.empty()) continue;
        // Other textures may change under the same vertices: always redrawn.
        bool always = all || c.tex != f.font;
        const ImDrawVert *v = l.vtx.data() + c.vtxOffset;
        for (unsigned i = 0; i + 2 < c.elemCount; i += 3) {
            const ImDrawIdx *t = l.idx.data() + c.idxOffset + i;
            if (always || touched(c.vtxOffset + t[0]) || touched(c.vtxOffset + t[1]) || touched(c.vtxOffset + t[2]))
                addDirty(triangleBox(f, v, t, clip));
        }
    }
}

bool sameCommands(const List &a, const List &b, bool counts) {
    if (a.cmds.size() != b.cmds.size()) return false;
    for (size_t i = 0; i < a.cmds.size(); i++) {
        const Cmd &x = a.cmds[i], &y = b.cmds[i];
        if (memcmp(&x.clip, &y.clip, sizeof(ImVec4)) != 0 || x.tex != y.tex || x.vtxOffset != y.vtxOffset || x.callback || y.callback)
            return false;
        if (counts && (x.idxOffset != y.idxOffset || x.elemCount != y.elemCount)) return false;
    }
    return true;
}

bool sameVertex(const ImDrawVert &a, const ImDrawVert &b) { return memcmp(&a, &b, sizeof(ImDrawVert)) == 0; }

void diffList(const Frame &of, const List &o, const Frame &nf, const List &n) {
    bool sameCounts = o.vtx.size() == n.vtx.size() && o.idx.size() == n.idx.size();
    if (!sameCommands(o, n, sameCounts)) {
        addTriangles(of, o, true, [](size_t) { return true; });
        addTriangles(nf, n, true, [](size_t) { return true; });
        return;
    }
    if (sameCounts && memcmp(o.idx.data(), n.idx.data(), o.idx.size() * sizeof(ImDrawIdx)) == 0) {
        std::vector<bool> changed(n.vtx.size());
        bool any = false;
        for (size_t i = 0; i < n.vtx.size(); i++)
            if (!sameVertex(o.vtx[i], n.vtx[i])) { changed[i] = true; any = true; }
        if (!any) {
            addTriangles(nf, n, false, [](size_t) { return false; });  // other textures only
            return;
        }
        auto touched = [&](size_t i) { return i < changed.size() && changed[i]; };
        addTriangles(of, o, false, touched);
        addTriangles(nf, n, false, touched);
        return;
    }
    // Different counts: what lies between the common prefix and suffix changed.
    size_t on = o.vtx.size(), nn = n.vtx.size(), lim = std::min(on, nn);
    size_t pre = 0;
    while (pre < lim && sameVertex(o.vtx[pre], n.vtx[pre])) pre++;
    size_t suf = 0;
    while (suf < lim - pre && sameVertex(o.vtx[on - 1 - suf], n.vtx[nn - 1 - suf])) suf++;
    addTriangles(of, o, false, [&](size_t i) { return i >= pre && i < on - suf; });
    addTriangles(nf, n, false, [&](size_t i) { return i >= pre && i < nn - suf; });
}

// Merges boxes that touch, then the cheapest pairs until at most `most` remain.
void mergeBoxes(std::vector<IRect> &boxes, size_t most, int gap) {
    if (boxes.size() > 64) {  // changes all over (a scroll, a new layout): one box; keeps the merge below cheap
        IRect u;
        for (const IRect &r : boxes) u = u.united(r);
        boxes.assign(1, u);
        return;
    }
    bool merged = true;
    while (merged) {
        merged = false;
        for (size_t i = 0; i < boxes.size() && !merged; i++)
            for (size_t j = i + 1; j < boxes.size(); j++)
                if (boxes[i].touches(boxes[j], gap)) {
                    boxes[i] = boxes[i].united(boxes[j]);
                    boxes.erase(boxes.begin() + j);
                    merged = true;
                    break;
                }
    }
    while (boxes.size() > most) {
        size_t bi = 0, bj = 1;
        long best = -1;
        for (size_t i = 0; i < boxes.size(); i++)
            for (size_t j = i + 1; j < boxes.size(); j++) {
                long cost = boxes[i].united(boxes[j]).area() - boxes[i].area() - boxes[j].area();
                if (best < 0 || cost < best) { best = cost; bi = i; bj = j; }
            }
        boxes[bi] = boxes[bi].united(boxes[bj]);
        boxes.erase(boxes.begin() + bj);
        mergeBoxes(boxes, most, gap);  // the union may now touch another box
    }
}

void setProjection(const ImDrawData *d) {
    float L = d->DisplayPos.x, R = d->DisplayPos.x + d->DisplaySize.x;
    float T = d->DisplayPos.y, B = d->DisplayPos.y + d->DisplaySize.y;
    const float m[4][4] = {
        {2.0f / (R - L), 0.0f, 0.0f, 0.0f},
        {0.0f, 2.0f / (T - B), 0.0f, 0.0f},
        {0.0f, 0.0f, -1.0f, 0.0f},
        {(R + L) / (L - R), (T + B) / (B - T), 0.0f, 1.0f},
    };
    glUniformMatrix4fv(cache.locProj, 1, GL_FALSE, &m[0][0]);
}

void scissor(const IRect &r, int fbh) { glScissor(r.x0, fbh - r.y1, r.x1 - r.x0, r.y1 - r.y0); }

// Clears `box` in the layer and draws into it every triangle that can reach it.
void redraw(const Frame &f, const IRect &box) {
    scissor(box, f.fbh);
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT);
    struct Range { size_t start, count; IRect clip; ImTextureID tex; unsigned vtxOffset; };
    static std::vector<Range> ranges;
    for (const List &l : f.lists) {
        cache.scratch.clear();
        ranges.clear();
        for (const Cmd &c : l.cmds) {
            if (c.callback) continue;
            IRect clip = clipPixels(f, c.clip).intersected(box);
            if (clip.empty()) continue;
            size_t start = cache.scratch.size();
            const ImDrawVert *v = l.vtx.data() + c.vtxOffset;
            for (unsigned i = 0; i + 2 < c.elemCount; i += 3) {
                const ImDrawIdx *t = l.idx.data() + c.idxOffset + i;
                if (!triangleBox(f, v, t, clip).empty()) cache.scratch.insert(cache.scratch.end(), t, t + 3);
            }
            if (cache.scratch.size() > start) ranges.push_back({start, cache.scratch.size() - start, clip, c.tex, c.vtxOffset});
        }
        if (ranges.empty()) continue;
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(l.vtx.size() * sizeof(ImDrawVert)), l.vtx.data(), GL_STREAM_DRAW);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(cache.scratch.size() * sizeof(ImDrawIdx)), cache.scratch.data(), GL_STREAM_DRAW);
        for (const Range &r : ranges) {
            scissor(r.clip, f.fbh);
            glBindTexture(GL_TEXTURE_2D, (GLuint)(intptr_t)r.tex);
            glDrawElementsBaseVertex(GL_TRIANGLES, (GLsizei)r.count, sizeof(ImDrawIdx) == 2 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT,
                                     (void *)(intptr_t)(r.start * sizeof(ImDrawIdx)), (GLint)r.vtxOffset);
        }
    }
}

// `a` minus `b` as up to four disjoint rectangles, appended to `out`.
void subtract(const IRect &a, const IRect &b, std::vector<IRect> &out) {
    IRect i = a.intersected(b);
    if (i.empty()) { out.push_back(a); return; }
    if (a.y0 < i.y0) out.push_back({a.x0, a.y0, a.x1, i.y0});
    if (i.y1 < a.y1) out.push_back({a.x0, i.y1, a.x1, a.y1});
    if (a.x0 < i.x0) out.push_back({a.x0, i.y0, i.x0, i.y1});
    if (i.x1 < a.x1) out.push_back({i.x1, i.y0, a.x1, i.y1});
}

// Where the layer has content: per list, its triangles' box; the boxes are
// made disjoint (a pixel must be composited exactly once).
std::vector<IRect> contentBoxes(const Frame &f) {
    std::vector<IRect> boxes;
    for (const List &l : f.lists) {
        IRect u;
        for (const Cmd &c : l.cmds) {
            if (c.callback) continue;
            IRect clip = clipPixels(f, c.clip);
            if (clip.empty()) continue;
            const ImDrawVert *v = l.vtx.data() + c.vtxOffset;
            for (unsigned i = 0; i + 2 < c.elemCount; i += 3)
                u = u.united(triangleBox(f, v, l.idx.data() + c.idxOffset + i, clip));
        }
        if (u.empty()) continue;
        // Keep the boxes disjoint: add only the parts of `u` not yet covered.
        std::vector<IRect> parts{u}, next;
        for (const IRect &b : boxes) {
            next.clear();
            for (const IRect &p : parts) subtract(p, b, next);
            parts.swap(next);
        }
        boxes.insert(boxes.end(), parts.begin(), parts.end());
    }
    if (boxes.size() > 64) {  // many windows: one box, every pixel once
        IRect all;
        for (const IRect &b : boxes) all = all.united(b);
        boxes.assign(1, all);
    }
    return boxes;
}

struct SavedState {
    GLint fbo, program, texture, activeTexture, vao, arrayBuffer, viewport[4], scissorBox[4];
    GLint blendSrcRGB, blendDstRGB, blendSrcA, blendDstA, blendEqRGB, blendEqA;
    GLboolean blend, cull, depth, stencil, scissorTest;
    void save() {
        glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &fbo);
        glGetIntegerv(GL_CURRENT_PROGRAM, &program);
        glGetIntegerv(GL_ACTIVE_TEXTURE, &activeTexture);
        glActiveTexture(GL_TEXTURE0);
        glGetIntegerv(GL_TEXTURE_BINDING_2D, &texture);
        glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vao);
        glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &arrayBuffer);
        glGetIntegerv(GL_VIEWPORT, viewport);
        glGetIntegerv(GL_SCISSOR_BOX, scissorBox);
        glGetIntegerv(GL_BLEND_SRC_RGB, &blendSrcRGB);
        glGetIntegerv(GL_BLEND_DST_RGB, &blendDstRGB);
        glGetIntegerv(GL_BLEND_SRC_ALPHA, &blendSrcA);
        glGetIntegerv(GL_BLEND_DST_ALPHA, &blendDstA);
        glGetIntegerv(GL_BLEND_EQUATION_RGB, &blendEqRGB);
        glGetIntegerv(GL_BLEND_EQUATION_ALPHA, &blendEqA);
        blend = glIsEnabled(GL_BLEND);
        cull = glIsEnabled(GL_CULL_FACE);
        depth = glIsEnabled(GL_DEPTH_TEST);
        stencil = glIsEnabled(GL_STENCIL_TEST);
        scissorTest = glIsEnabled(GL_SCISSOR_TEST);
    }
    static void toggle(GLenum cap, GLboolean on) { if (on) glEnable(cap); else glDisable(cap); }
    void restore() const {
        glBindFramebuffer(GL_FRAMEBUFFER, (GLuint)fbo);
        glUseProgram((GLuint)program);
        glBindTexture(GL_TEXTURE_2D, (GLuint)texture);
        glActiveTexture((GLenum)activeTexture);
        glBindVertexArray((GLuint)vao);
        glBindBuffer(GL_ARRAY_BUFFER, (GLuint)arrayBuffer);
        glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
        glScissor(scissorBox[0], scissorBox[1], scissorBox[2], scissorBox[3]);
        glBlendEquationSeparate((GLenum)blendEqRGB, (GLenum)blendEqA);
        glBlendFuncSeparate((GLenum)blendSrcRGB, (GLenum)blendDstRGB, (GLenum)blendSrcA, (GLenum)blendDstA);
        toggle(GL_BLEND, blend);
        toggle(GL_CULL_FACE, cull);
        toggle(GL_DEPTH_TEST, depth);
        toggle(GL_STENCIL_TEST, stencil);
        toggle(GL_SCISSOR_TEST, scissorTest);
    }
};

bool hasCallbacks(const ImDrawData *d) {
    for (int i = 0; i < d->CmdListsCount; i++)
        for (const ImDrawCmd &c : d->CmdLists[i]->CmdBuffer)
            if (c.UserCallback != nullptr) return true;
    return false;
}

// Brings the layer up to date with the current draw data; with `mirror`,
// also its CPU copy. False when it cannot be used (then draw directly).
bool updateLayer(bool mirror) {
    ImDrawData *d = ImGui::GetDrawData();
    if (!d || !cache.enabled || hasCallbacks(d)) { cache.valid = false; return false; }
    int fbw = (int)(d->DisplaySize.x * d->FramebufferScale.x), fbh = (int)(d->DisplaySize.y * d->FramebufferScale.y);
    if (fbw <= 0 || fbh <= 0) { cache.valid = false; return false; }
    if (!cache.ready && !createObjects()) { cache.enabled = false; return false; }
    SavedState saved;
    saved.save();
    if (!resizeTarget(fbw, fbh)) { saved.restore(); cache.valid = false; return false; }

    Frame now = snapshot(d, fbw, fbh);
    const Frame &was = cache.last;
    cache.dirty.clear();
    bool whole = !cache.valid || was.fbw != fbw || was.fbh != fbh || was.font != now.font ||
                 memcmp(&was.pos, &now.pos, sizeof(ImVec2)) != 0 || memcmp(&was.scale, &now.scale, sizeof(ImVec2)) != 0;
    if (whole) {
        cache.dirty.push_back({0, 0, fbw, fbh});
    } else {
        size_t n = std::max(was.lists.size(), now.lists.size());
        for (size_t i = 0; i < n; i++) {
            if (i >= now.lists.size()) addTriangles(was, was.lists[i], true, [](size_t) { return true; });
            else if (i >= was.lists.size()) addTriangles(now, now.lists[i], true, [](size_t) { return true; });
            else diffList(was, was.lists[i], now, now.lists[i]);
        }
        mergeBoxes(cache.dirty, 8, 2);
    }

    cache.dirtyPixels = 0;
    if (!cache.dirty.empty()) {
        glDisable(GL_CULL_FACE);
        glDisable(GL_DEPTH_TEST);
        glDisable(GL_STENCIL_TEST);
        glEnable(GL_SCISSOR_TEST);
        glActiveTexture(GL_TEXTURE0);
        glUseProgram(cache.program);
        glUniform1i(cache.locTex, 0);
        glBindVertexArray(cache.vao);
        glBindBuffer(GL_ARRAY_BUFFER, cache.vbo);
        glBindFramebuffer(GL_FRAMEBUFFER, cache.fbo);
        glViewport(0, 0, fbw, fbh);
        glEnable(GL_BLEND);
        glBlendEquation(GL_FUNC_ADD);
        glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
        setProjection(d);
        for (const IRect &box : cache.dirty) {
            redraw(now, box);
            cache.dirtyPixels += box.area();
        }
    }
    cache.last = std::move(now);
    cache.valid = true;
    cache.boxes = contentBoxes(cache.last);

    if (!mirror) {
        cache.mirrorValid = false;
    } else {
        std::vector<IRect> reads;
        if (!cache.mirrorValid || cache.mirror.size() != (size_t)fbw * fbh * 4) {
            cache.mirror.assign((size_t)fbw * fbh * 4, 0);
            reads.push_back({0, 0, fbw, fbh});
        } else {
            reads = cache.dirty;
        }
        if (!reads.empty()) {
            glBindFramebuffer(GL_READ_FRAMEBUFFER, cache.fbo);
            glReadBuffer(GL_COLOR_ATTACHMENT0);
            glPixelStorei(GL_PACK_ALIGNMENT, 4);
            glPixelStorei(GL_PACK_ROW_LENGTH, fbw);
            for (const IRect &r : reads) {
                int glY = fbh - r.y1;
                glReadPixels(r.x0, glY, r.x1 - r.x0, r.y1 - r.y0, GL_RGBA, GL_UNSIGNED_BYTE,
                             cache.mirror.data() + ((size_t)glY * fbw + r.x0) * 4);
            }
            glPixelStorei(GL_PACK_ROW_LENGTH, 0);
        }
        cache.mirrorValid = true;
    }
    saved.restore();
    return true;
}

// The layer over the bound framebuffer, premultiplied "over", one quad per box.
void compositeGL() {
    const Frame &f = cache.last;
    cache.compositePixels = 0;
    if (cache.boxes.empty()) return;
    SavedState saved;
    saved.save();
    glViewport(0, 0, f.fbw, f.fbh);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_CULL_FACE);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_STENCIL_TEST);
    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    glBlendFuncSeparate(GL_ONE, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(cache.blit);
    glUniform1i(cache.locBlitTex, 0);
    // Pixel coordinates straight to clip space (y down), uv in the layer (y up).
    const float m[4][4] = {{2.0f / f.fbw, 0, 0, 0}, {0, -2.0f / f.fbh, 0, 0}, {0, 0, -1, 0}, {-1, 1, 0, 1}};
    glUniformMatrix4fv(cache.locBlitProj, 1, GL_FALSE, &m[0][0]);
    std::vector<ImDrawVert> verts;
    std::vector<ImDrawIdx> idx;
    for (const IRect &b : cache.boxes) {
        ImDrawIdx base = (ImDrawIdx)verts.size();
        float u0 = (float)b.x0 / f.fbw, u1 = (float)b.x1 / f.fbw, v0 = 1.0f - (float)b.y0 / f.fbh, v1 = 1.0f - (float)b.y1 / f.fbh;
        verts.push_back({ImVec2((float)b.x0, (float)b.y0), ImVec2(u0, v0), 0xFFFFFFFF});
        verts.push_back({ImVec2((float)b.x1, (float)b.y0), ImVec2(u1, v0), 0xFFFFFFFF});
        verts.push_back({ImVec2((float)b.x1, (float)b.y1), ImVec2(u1, v1), 0xFFFFFFFF});
        verts.push_back({ImVec2((float)b.x0, (float)b.y1), ImVec2(u0, v1), 0xFFFFFFFF});
        for (int k : {0, 1, 2, 0, 2, 3}) idx.push_back((ImDrawIdx)(base + k));
        cache.compositePixels += b.area();
    }
    glBindVertexArray(cache.vao);
    glBindBuffer(GL_ARRAY_BUFFER, cache.vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(verts.size() * sizeof(ImDrawVert)), verts.data(), GL_STREAM_DRAW);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(idx.size() * sizeof(ImDrawIdx)), idx.data(), GL_STREAM_DRAW);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, cache.tex);
    glDrawElements(GL_TRIANGLES, (GLsizei)idx.size(), sizeof(ImDrawIdx) == 2 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT, nullptr);
    saved.restore();
}

typedef uint32_t __attribute__((may_alias)) u32a;  // a pixel read from / written to byte buffers

// Premultiplied "over" of one RGBA8 pixel (little-endian: R in the low
// byte): dst = src + dst * (255 - src.a) / 255, rounded, saturated per
// channel (rounding in the layer can leave a channel one above its alpha).
// Two channels per 32-bit lane so that the compiler vectorises the loop.
inline uint32_t over(uint32_t s, uint32_t d) {
    uint32_t k = 255u - (s >> 24);
    uint32_t rb = (d & 0x00FF00FFu) * k + 0x00800080u;
    rb = ((rb + ((rb >> 8) & 0x00FF00FFu)) >> 8) & 0x00FF00FFu;
    uint32_t ag = ((d >> 8) & 0x00FF00FFu) * k + 0x00800080u;
    ag = ((ag + ((ag >> 8) & 0x00FF00FFu)) >> 8) & 0x00FF00FFu;
    rb += s & 0x00FF00FFu;
    ag += (s >> 8) & 0x00FF00FFu;
    uint32_t c = rb & 0x01000100u;
    rb = (rb | (c - (c >> 8))) & 0x00FF00FFu;
    c = ag & 0x01000100u;
    ag = (ag | (c - (c >> 8))) & 0x00FF00FFu;
    return rb | (ag << 8);
}

#if defined(__SSE2__)
// `over` for four pixels at a time in 16-bit lanes (SSE2 is x86-64's
// baseline); returns how many pixels it did (a multiple of four).
int overSSE2(const uint8_t *src, uint8_t *dst, int n) {
    const __m128i zero = _mm_setzero_si128(), c255 = _mm_set1_epi32(255), c128 = _mm_set1_epi16(128);
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        __m128i s = _mm_loadu_si128((const __m128i *)(src + i * 4));
        __m128i d = _mm_loadu_si128((const __m128i *)(dst + i * 4));
        __m128i k = _mm_sub_epi32(c255, _mm_srli_epi32(s, 24));
        k = _mm_or_si128(k, _mm_slli_epi32(k, 16));  // 255 - alpha in both halves of each pixel
        __m128i lo = _mm_add_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(d, zero), _mm_unpacklo_epi32(k, k)), c128);
        __m128i hi = _mm_add_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(d, zero), _mm_unpackhi_epi32(k, k)), c128);
        lo = _mm_srli_epi16(_mm_add_epi16(lo, _mm_srli_epi16(lo, 8)), 8);
        hi = _mm_srli_epi16(_mm_add_epi16(hi, _mm_srli_epi16(hi, 8)), 8);
        _mm_storeu_si128((__m128i *)(dst + i * 4), _mm_adds_epu8(_mm_packus_epi16(lo, hi), s));
    }
    return i;
}
#endif

}  // namespace

extern "C" {

void ig_ui_cache_set_enabled(bool on) {
    if (!on) destroyObjects();
    cache.enabled = on;
}
void ig_ui_cache_release(void) { destroyObjects(); }
void ig_ui_cache_invalidate(void) { cache.valid = false; cache.mirrorValid = false; }
long ig_ui_cache_dirty_pixels(void) { return cache.dirtyPixels; }
long ig_ui_cache_composite_pixels(void) { return cache.compositePixels; }

bool ig_gl_is_software(void) {
    const char *r = (const char *)glGetString(GL_RENDERER);
    if (!r) return false;
    return strstr(r, "llvmpipe") || strstr(r, "softpipe") || strstr(r, "Software") || strstr(r, "SWR");
}

bool ig_ui_layer_update(bool cpu_mirror) { return updateLayer(cpu_mirror); }
void ig_ui_layer_composite_gl(void) { compositeGL(); }

int ig_ui_layer_boxes(int *xywh, int max) {
    int n = 0;
    for (const IRect &b : cache.boxes) {
        if (n >= max) break;
        xywh[n * 4] = b.x0; xywh[n * 4 + 1] = b.y0; xywh[n * 4 + 2] = b.x1 - b.x0; xywh[n * 4 + 3] = b.y1 - b.y0;
        n++;
    }
    return (int)cache.boxes.size();
}

bool ig_ui_layer_composite_cpu(uint8_t *rgba, int width, int height) {
    const Frame &f = cache.last;
    cache.compositePixels = 0;
    if (!cache.valid || !cache.mirrorValid || width != f.fbw || height != f.fbh) return false;
    for (const IRect &b : cache.boxes) {
        for (int y = b.y0; y < b.y1; y++) {
            const u32a *src = (const u32a *)(cache.mirror.data() + ((size_t)(height - 1 - y) * width + b.x0) * 4);
            u32a *dst = (u32a *)(rgba + ((size_t)y * width + b.x0) * 4);
            int n = b.x1 - b.x0, i = 0;
#if defined(__SSE2__)
            i = overSSE2((const uint8_t *)src, (uint8_t *)dst, n);
#endif
            for (; i < n; i++) dst[i] = over(src[i], dst[i]);
        }
        cache.compositePixels += b.area();
    }
    return true;
}

}  // extern "C"
