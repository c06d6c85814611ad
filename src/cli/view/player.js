"use strict";
(function () {
var D = PALA_DATA;
var errors = 0;
window.addEventListener("error", function (e) { errors++; console.error("pala view: " + e.message); });
function b64(s, Type) {
  var bin = atob(s), n = bin.length, u = new Uint8Array(n);
  for (var i = 0; i < n; i++) u[i] = bin.charCodeAt(i);
  return new Type(u.buffer);
}
var NS = D.ns || 7;
var S = b64(D.state, Float32Array);          /* frames x grains x (x y z rx ry rz speed angular-speed); a grain
                                                not in a frame (a run whose grains enter and leave) is NaN there */
var NG = D.tid.length, NF = D.step.length;
/* the run's contacts (contacts.tsv or .bin) at the frames' steps, if it wrote them: per frame
   and grain its coordination and |sum of contact forces| (NaN: no contacts at that step); the
   network, 8 numbers per contact (i ci j cj |f| x y z; j = -1: a wall), frame f's from
   D.noff[f] to D.noff[f + 1] */
var GF = D.gfield !== undefined ? b64(D.gfield, Float32Array) : null, NET = D.net !== undefined ? b64(D.net, Float32Array) : null;
/* components of every grain: body-frame vectors and radii, flattened */
var ncomp = 0, cg = [], cb = [], cr = [];
for (var k = 0; k < NG; k++) {
  var T = D.templates[D.tid[k]];
  for (var i = 0; i < T.comp.length; i++) {
    cg.push(k); cb.push(T.comp[i][0], T.comp[i][1], T.comp[i][2]); cr.push(T.comp[i][3]);
  }
}
ncomp = cg.length;
var CG = new Int32Array(cg), CB = new Float64Array(cb), CR = new Float64Array(cr);
/* arc grains (2D, docs/physics.md "Arc grains"): a template whose components carry their
   ends' directions [x, y, z, R, a0, a1] is drawn as its outline, sampled in its body frame
   (OUT[t]: x, y pairs), not as the arcs' circles */
var OUT = [], ARCS = false;
for (var t = 0; t < D.templates.length; t++) {
  var cs = D.templates[t].comp, o = null;
  if (cs[0].length === 6) {
    o = [];
    for (var i = 0; i < cs.length; i++) {
      var c = cs[i], m = 2 + Math.ceil(8 * (c[5] - c[4]) / Math.PI);
      for (var j = 0; j < m; j++) { var a = c[4] + (c[5] - c[4]) * j / m; o.push(c[0] + c[3] * Math.cos(a), c[1] + c[3] * Math.sin(a)); }
    }
    ARCS = true;
  }
  OUT.push(o);
}
var W = new Float64Array(3 * ncomp);            /* world centres of the current frame (NaN: not drawn) */
var VIS = new Uint8Array(NG), GC = new Int32Array(NG);   /* each grain drawn (in the frame, not clipped); its colour */
var Z = new Float64Array(ncomp), order = new Uint32Array(ncomp), SX = new Float64Array(ncomp), SY = new Float64Array(ncomp), SR = new Float64Array(ncomp);
var wframe = "";
/* the clipping plane: st.clip "x", "y" or "z" keeps the grains whose centre is below the
   plane at st.cut percent of the scene's extent along that axis, "-x", "-y", "-z" those
   above it; "" none */
function clipAt() { var a = "xyz".indexOf(st.clip.charAt(st.clip.length - 1)); return D.lo[a] + st.cut / 100 * (D.hi[a] - D.lo[a]); }
function clipped(g) {
  if (!st.clip) return false;
  var a = "xyz".indexOf(st.clip.charAt(st.clip.length - 1)), c = clipAt();
  return st.clip.charAt(0) === "-" ? S[g + a] < c : S[g + a] > c;
}
/* r * b, paper eq. (6); each grain's visibility and colour */
function place(f) {
  var key = f + "|" + st.clip + "|" + st.cut + "|" + st.colour;
  if (key === wframe) return;
  var o = f * NG * NS;
  st.drawn = 0;
  for (var k = 0; k < NG; k++) {
    var g = o + NS * k;
    VIS[k] = S[g] === S[g] && !clipped(g) ? 1 : 0;
    st.drawn += VIS[k];
    GC[k] = colourOf(f, k);
  }
  for (var p = 0; p < ncomp; p++) {
    var g = o + NS * CG[p], rx = S[g + 3], ry = S[g + 4], rz = S[g + 5];
    if (!VIS[CG[p]]) { W[3 * p] = W[3 * p + 1] = W[3 * p + 2] = NaN; continue; }
    var bx = CB[3 * p], by = CB[3 * p + 1], bz = CB[3 * p + 2];
    var rr = rx * rx + ry * ry + rz * rz, rb = rx * bx + ry * by + rz * bz, q = 1 / (1 + rr);
    W[3 * p] = S[g] + ((1 - rr) * bx + 2 * rb * rx + 2 * (ry * bz - rz * by)) * q;
    W[3 * p + 1] = S[g + 1] + ((1 - rr) * by + 2 * rb * ry + 2 * (rz * bx - rx * bz)) * q;
    W[3 * p + 2] = S[g + 2] + ((1 - rr) * bz + 2 * rb * rz + 2 * (rx * by - ry * bx)) * q;
  }
  wframe = key;
}
function rot(g, v) {   /* grain g's rotation of body vector v at the current frame */
  var rx = S[g + 3], ry = S[g + 4], rz = S[g + 5], bx = v[0], by = v[1], bz = v[2];
  var rr = rx * rx + ry * ry + rz * rz, rb = rx * bx + ry * by + rz * bz, q = 1 / (1 + rr);
  return [((1 - rr) * bx + 2 * rb * rx + 2 * (ry * bz - rz * by)) * q, ((1 - rr) * by + 2 * rb * ry + 2 * (rz * bx - rx * bz)) * q,
          ((1 - rr) * bz + 2 * rb * rz + 2 * (rx * by - ry * bx)) * q];
}
/* the three orthogonal radii of each component (paper, section 8): fixed in the body frame,
   the first along the line from the centre of mass */
var RAD = new Float64Array(9 * ncomp);
for (var p = 0; p < ncomp; p++) {
  var bx = CB[3 * p], by = CB[3 * p + 1], bz = CB[3 * p + 2], bl = Math.sqrt(bx * bx + by * by + bz * bz);
  var e1 = bl > 1e-9 * CR[p] ? [bx / bl, by / bl, bz / bl] : [1, 0, 0];
  var a = Math.abs(e1[2]) < 0.9 ? [0, 0, 1] : [1, 0, 0];
  var e2 = [e1[1] * a[2] - e1[2] * a[1], e1[2] * a[0] - e1[0] * a[2], e1[0] * a[1] - e1[1] * a[0]];
  var l2 = Math.sqrt(e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2]); e2 = [e2[0] / l2, e2[1] / l2, e2[2] / l2];
  var e3 = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
  RAD.set([e1[0], e1[1], e1[2], e2[0], e2[1], e2[2], e3[0], e3[1], e3[2]], 9 * p);
}
/* the radii times the component's radius (the wire frame's lines), and each grain's extent
   from its centre of mass (max |b| + R over its components: wire frames off the picture skipped) */
var RADR = new Float64Array(9 * ncomp), GEXT = new Float64Array(NG), GP0 = new Int32Array(NG + 1);   /* GP0: each grain's first component */
for (var p = 0; p < ncomp; p++) {
  for (var i = 0; i < 9; i++) RADR[9 * p + i] = CR[p] * RAD[9 * p + i];
  var bx = CB[3 * p], by = CB[3 * p + 1], bz = CB[3 * p + 2];
  GEXT[CG[p]] = Math.max(GEXT[CG[p]], Math.sqrt(bx * bx + by * by + bz * bz) + CR[p]);
}
for (var k = 0; k < NG; k++) {   /* an arc grain: its outline's extent */
  var o = OUT[D.tid[k]];
  if (!o) continue;
  GEXT[k] = 0;
  for (var i = 0; i < o.length; i += 2) GEXT[k] = Math.max(GEXT[k], Math.sqrt(o[i] * o[i] + o[i + 1] * o[i + 1]));
}
for (var p = 0; p < ncomp; p++) GP0[CG[p] + 1] = p + 1;
/* colours */
var TYPE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"];
var VIR = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
function vir(s) {
  s = Math.max(0, Math.min(1, s)); var q = s * 4, i = Math.min(3, Math.floor(q)), f = q - i, a = VIR[i], b = VIR[i + 1];
  return "rgb(" + Math.round(a[0] + f * (b[0] - a[0])) + "," + Math.round(a[1] + f * (b[1] - a[1])) + "," + Math.round(a[2] + f * (b[2] - a[2])) + ")";
}
var SPEEDC = []; for (var i = 0; i < 16; i++) SPEEDC.push(vir(i / 15));
/* the fields the grains are coloured by (#colour=NAME): a grain type's colour (indices 0-9),
   or 16 levels of viridis between the field's least and largest value over all frames
   (10-25), grey (26) where the field has no value (no contacts at that step) */
var GREY = 26;
var FIELDS = {
  type: { title: "grain type" },
  speed: { title: "speed", unit: "m/s", zero: true, v: function (g) { return S[g + 6]; } },
  height: { title: D.dim === 2 ? "height y" : "height z", unit: "m", v: function (g) { return S[g + (D.dim === 2 ? 1 : 2)]; } },
  angular: { title: "angular speed", unit: "rad/s", zero: true, v: function (g) { return NS > 7 ? S[g + 7] : NaN; } },
  coordination: { title: "coordination", unit: "grains", int: true, zero: true, contacts: true, v: function (g, f, k) { return GF ? GF[2 * (f * NG + k)] : NaN; } },
  grain: { title: "grain number", unit: "", int: true, zero: true, v: function (g, f, k) { return k; } },
  force: { title: "contact force |\u03a3f|", unit: "N", zero: true, contacts: true, v: function (g, f, k) { return GF ? GF[2 * (f * NG + k) + 1] : NaN; } }
};
function range(F) {   /* the field's least and largest value over all frames (grains present) */
  if (F.lo !== undefined) return;
  var lo = Infinity, hi = -Infinity;
  for (var f = 0; f < NF; f++) for (var k = 0; k < NG; k++) {
    var g = (f * NG + k) * NS;
    if (S[g] !== S[g]) continue;
    var v = F.v(g, f, k);
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (F.zero && lo > 0) lo = 0;
  if (!(hi >= lo)) { lo = 0; hi = 0; }
  F.lo = lo; F.hi = hi;
}
function colourOf(f, k) {
  var F = FIELDS[st.colour] || FIELDS.type;
  if (!F.v) return D.templates[D.tid[k]].colour % 10;
  range(F);
  var v = F.v((f * NG + k) * NS, f, k);
  if (v !== v) return GREY;
  return 10 + Math.max(0, Math.min(15, Math.round(15 * (F.hi > F.lo ? (v - F.lo) / (F.hi - F.lo) : 0))));
}
/* the scene's extent and the camera */
var lo = D.lo, hi = D.hi, C0 = [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2];
var size = Math.max(hi[0] - lo[0], hi[1] - lo[1], D.dim === 2 ? 0 : hi[2] - lo[2]);
var cam = {};
function reset() {
  cam.yaw = D.dim === 2 ? 0 : 0.6; cam.pitch = D.dim === 2 ? Math.PI / 2 : 0.35; cam.fov = 35 * Math.PI / 180;
  cam.dist = 0.62 * size / Math.tan(cam.fov / 2); cam.target = C0.slice(); cam.near = 1e-3 * size;
  document.getElementById("fov").value = 35;
}
/* the camera on the frame's grains drawn (#frameon=grains, the "fit" button): aimed at the
   middle of their box, as far as reset() is from the whole scene for a scene of their size */
function fitGrains() {
  place(st.frame);
  var a = [Infinity, Infinity, Infinity], b = [-Infinity, -Infinity, -Infinity];
  for (var p = 0; p < ncomp; p++) {
    if (W[3 * p] !== W[3 * p]) continue;
    for (var i = 0; i < 3; i++) { a[i] = Math.min(a[i], W[3 * p + i] - CR[p]); b[i] = Math.max(b[i], W[3 * p + i] + CR[p]); }
  }
  if (!(b[0] >= a[0])) return;
  var ext = Math.max(b[0] - a[0], b[1] - a[1], D.dim === 2 ? 0 : b[2] - a[2]);
  cam.target = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
  cam.dist = 0.62 * ext / Math.tan(cam.fov / 2);
}
/* two ways to draw: on the CPU (a depth buffer in script, the default: it needs no
   graphics card and draws 10,000 grains at 30 frames per second where WebGL runs in
   software, docs/visualisation.md) or WebGL (spheres as shaded point sprites with their
   true depth: faster with a graphics card); #renderer=webgl or the "draw" control */
var cpuCanvas = document.getElementById("c"), canvas = cpuCanvas, ctx = cpuCanvas.getContext("2d"), glCanvas = null, gl = null;
var st = { frame: 0, playing: false, style: "solid", colour: "type", stereo: "planar", eye: 0.3, fps: 15, lastDraw: 0, renderer: "cpu",
           clip: "", cut: 50, network: "", drawn: 0, lines: 0, legend: null };
function setRenderer(r) {
  if (r === "webgl" && ARCS) { console.log("pala view: arc grains are drawn on the CPU"); r = "cpu"; }
  if (r === "webgl" && !gl) {
    var c2 = document.createElement("canvas");
    c2.style.cssText = "position: absolute; left: 0; top: 0; cursor: grab";
    try { gl = c2.getContext("webgl", { antialias: true, preserveDrawingBuffer: true }); } catch (e) { gl = null; }
    if (!gl) { console.log("pala view: no WebGL here, drawing on the CPU"); r = "cpu"; }
    else { glCanvas = c2; cpuCanvas.parentNode.insertBefore(c2, cpuCanvas.nextSibling); bindMouse(c2); }
  }
  st.renderer = r; document.getElementById("renderer").value = r;
  cpuCanvas.style.display = r === "cpu" ? "" : "none";
  if (glCanvas) glCanvas.style.display = r === "webgl" ? "" : "none";
  canvas = r === "webgl" ? glCanvas : cpuCanvas;
  if (document.getElementById("bar").offsetHeight) { resize(); draw(); }
}
function basis() {
  var cp = Math.cos(cam.pitch), d = [cp * Math.sin(cam.yaw), -cp * Math.cos(cam.yaw), Math.sin(cam.pitch)];
  var f = [-d[0], -d[1], -d[2]];
  var r = [f[1], -f[0], 0], rl = Math.sqrt(r[0] * r[0] + r[1] * r[1]);
  if (rl < 1e-9) r = [Math.cos(cam.yaw), Math.sin(cam.yaw), 0]; else r = [r[0] / rl, r[1] / rl, 0];
  var u = [r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0]];
  var E = [cam.target[0] + cam.dist * d[0], cam.target[1] + cam.dist * d[1], cam.target[2] + cam.dist * d[2]];
  return { f: f, r: r, u: u, E: E };
}
/* draw one eye's picture on the CPU: a depth buffer in script, each component sphere a
   shaded disc from a table of discs by radius (quarter pixels) with its surface's depth,
   lines (container, wire frames) with depth; shift: the eye's offset along the right
   vector; pass: 0 planar, 1 the left eye (red channel), 2 the right eye (green and blue);
   zb: the eye's depth buffer */
var CPU = null;
function cpuInit(w, h) {
  var img = ctx.createImageData(w, h);
  CPU = { w: w, h: h, img: img, col: new Uint32Array(img.data.buffer), z: new Float32Array(w * h), z2: new Float32Array(w * h), spr: [] };
  /* palettes: per colour (10 types, 16 speeds, grey) 256 shades, diffuse (32) x specular (8) */
  var cols = ALL3, P = new Uint32Array(256 * cols.length);
  for (var c = 0; c < cols.length; c++) for (var k = 0; k < 256; k++) {
    var df = (k >> 3) / 31, sp = (k & 7) / 7, v = [0, 0, 0];
    for (var i = 0; i < 3; i++) v[i] = Math.max(0, Math.min(255, Math.round(255 * (cols[c][i] * (0.22 + 0.78 * df) + 0.4 * sp))));
    P[256 * c + k] = (255 << 24 | v[2] << 16 | v[1] << 8 | v[0]) >>> 0;
  }
  CPU.pal = P; CPU.grey = 256 * (cols.length - 1);
  /* the grey shades as the left eye's red and the right eye's green and blue (anaglyph) */
  var EL = new Uint32Array(256), ER = new Uint32Array(256);
  for (var k = 0; k < 256; k++) { var g = P[CPU.grey + k] & 255; EL[k] = (0xff000000 | g) >>> 0; ER[k] = (0xff000000 | g << 16 | g << 8) >>> 0; }
  CPU.eye = [null, EL, ER];
}
function cpuSprite(q) {   /* a disc of radius q / 4 px: pixel offsets, shade, depth factor */
  var r = q / 4, ri = Math.ceil(r), w = CPU.w, o = [], X = [], Y = [], K = [], N = [];
  var L = [-0.45, 0.55, 0.75], ll = Math.sqrt(L[0] * L[0] + L[1] * L[1] + L[2] * L[2]); L = [L[0] / ll, L[1] / ll, L[2] / ll];
  for (var y = -ri; y <= ri; y++) for (var x = -ri; x <= ri; x++) {
    var a = x / r, b = -y / r, r2 = a * a + b * b;
    if (r2 > 1 && !(x === 0 && y === 0)) continue;
    var n = Math.sqrt(Math.max(0, 1 - r2)), nl = a * L[0] + b * L[1] + n * L[2];
    var df = Math.max(0, nl), sp = Math.pow(Math.max(0, 2 * nl * n - L[2]), 28);
    o.push(y * w + x); X.push(x); Y.push(y); N.push(n);
    K.push(Math.round(31 * df) << 3 | Math.min(7, Math.round(7 * sp)));
  }
  return { ri: ri, off: new Int32Array(o), dx: new Int16Array(X), dy: new Int16Array(Y), k: new Uint8Array(K), nz: new Float32Array(N) };
}
/* a line from (x0, y0, z0) to (x1, y1, z1) (pixels, depth): each pixel on it tested
   against the depth buffer zb (and, with zw, writing it) and given (its colour & keep) | c;
   steps without divisions, and without bounds tests when both ends are on the picture */
function cpuLine(x0, y0, z0, x1, y1, z1, c, keep, zb, zw) {
  var w = CPU.w, h = CPU.h, col = CPU.col, dx = x1 - x0, dy = y1 - y0, adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
  var n = Math.ceil(adx > ady ? adx : ady) || 1;
  if (n > 4 * (w + h)) return;
  var s = 1 / n, sx = dx * s, sy = dy * s, sz = (z1 - z0) * s, x = x0 + 0.5, y = y0 + 0.5, z = z0, i, o;
  if (x0 >= 0 && y0 >= 0 && x1 >= 0 && y1 >= 0 && x0 < w - 1 && x1 < w - 1 && y0 < h - 1 && y1 < h - 1) {
    for (i = 0; i <= n; i++) {
      o = (y | 0) * w + (x | 0);
      if (z <= zb[o]) { if (zw) zb[o] = z; col[o] = (col[o] & keep) | c; }
      x += sx; y += sy; z += sz;
    }
  } else {
    for (i = 0; i <= n; i++) {
      var xi = Math.floor(x), yi = Math.floor(y);
      if (xi >= 0 && yi >= 0 && xi < w && yi < h) {
        o = yi * w + xi;
        if (z <= zb[o]) { if (zw) zb[o] = z; col[o] = (col[o] & keep) | c; }
      }
      x += sx; y += sy; z += sz;
    }
  }
}
/* the wire frames of all grains (paper, section 8): a line from the centre of mass to each
   component, three radii per component.  First every line is projected into one list
   (typed arrays: the ends' pixel x, y and depth, and a colour); then the list is drawn in
   one loop, once per eye.  Per grain, the rotation of eq. (6) and the camera make one
   matrix M (body frame to the camera's right, up and forward), so a line end costs nine
   products and a division.  hs > 0: both eyes of an anaglyph from one list (the eyes differ
   only by x' = x -+ F hs / z): the left eye's lines in the red channel with depth buffer
   CPU.z, the right eye's in green and blue with CPU.z2 */
var SEG = null, SEGC = null;
function cpuWire(w, h, B, hs, WC) {
  var F = (h / 2) / Math.tan(cam.fov / 2), cx = w / 2, cy = h / 2, near = cam.near;
  var E0 = B.E[0], E1 = B.E[1], E2 = B.E[2], f0 = B.f[0], f1 = B.f[1], f2 = B.f[2], r0 = B.r[0], r1 = B.r[1], r2 = B.r[2], u0 = B.u[0], u1 = B.u[1], u2 = B.u[2];
  var g0 = st.frame * NG * NS, p = 0, ext = GEXT;
  if (!SEG) { SEG = new Float32Array(24 * ncomp); SEGC = new Int32Array(4 * ncomp); }
  var sg = SEG, sc = SEGC, n = 0;
  for (var k = 0; k < NG; k++) {
    var g = g0 + NS * k, p1 = GP0[k + 1];
    if (!VIS[k]) { p = p1; continue; }   /* not in this frame, or clipped */
    /* the centre of mass, in the camera's frame */
    var qx = S[g] - E0, qy = S[g + 1] - E1, qz = S[g + 2] - E2;
    var ax = qx * r0 + qy * r1 + qz * r2, ay = qx * u0 + qy * u1 + qz * u2, az = qx * f0 + qy * f1 + qz * f2, e = ext[k];
    /* culled: the whole grain behind the eye or off the picture */
    if (!(az + e >= near) || F * (Math.abs(ax) - e - hs) > (cx + 1) * (az + e) || F * (Math.abs(ay) - e) > (cy + 1) * (az + e)) { p = p1; continue; }
    var c = WC[GC[k]];
    /* M = (right, up, forward) R, R the rotation of eq. (6) with rotation vector (rx, ry, rz) */
    var rx = S[g + 3], ry = S[g + 4], rz = S[g + 5], rr = rx * rx + ry * ry + rz * rz, qn = 1 / (1 + rr), d = 1 - rr;
    var R00 = (d + 2 * rx * rx) * qn, R01 = 2 * (rx * ry - rz) * qn, R02 = 2 * (rx * rz + ry) * qn;
    var R10 = 2 * (ry * rx + rz) * qn, R11 = (d + 2 * ry * ry) * qn, R12 = 2 * (ry * rz - rx) * qn;
    var R20 = 2 * (rz * rx - ry) * qn, R21 = 2 * (rz * ry + rx) * qn, R22 = (d + 2 * rz * rz) * qn;
    var M00 = r0 * R00 + r1 * R10 + r2 * R20, M01 = r0 * R01 + r1 * R11 + r2 * R21, M02 = r0 * R02 + r1 * R12 + r2 * R22;
    var M10 = u0 * R00 + u1 * R10 + u2 * R20, M11 = u0 * R01 + u1 * R11 + u2 * R21, M12 = u0 * R02 + u1 * R12 + u2 * R22;
    var M20 = f0 * R00 + f1 * R10 + f2 * R20, M21 = f0 * R01 + f1 * R11 + f2 * R21, M22 = f0 * R02 + f1 * R12 + f2 * R22;
    var okA = az >= near, Ax = 0, Ay = 0;
    if (okA) { Ax = cx + F * ax / az; Ay = cy - F * ay / az; }
    for (; p < p1; p++) {
      /* the component's centre, x + R b (eq. 6) */
      var bx = CB[3 * p], by = CB[3 * p + 1], bz = CB[3 * p + 2];
      var px = ax + M00 * bx + M01 * by + M02 * bz, py = ay + M10 * bx + M11 * by + M12 * bz, pz = az + M20 * bx + M21 * by + M22 * bz;
      if (pz < near) continue;
      var iz = F / pz, Px = cx + px * iz, Py = cy - py * iz, o = 6 * n;
      if (okA) { sg[o] = Ax; sg[o + 1] = Ay; sg[o + 2] = az; sg[o + 3] = Px; sg[o + 4] = Py; sg[o + 5] = pz; sc[n++] = c; o += 6; }
      for (var j = 9 * p, jn = j + 9; j < jn; j += 3) {   /* the three radii: R times the unit vectors of RAD */
        var ex = RADR[j], ey = RADR[j + 1], ez = RADR[j + 2];
        var tz = pz + M20 * ex + M21 * ey + M22 * ez;
        if (tz < near) continue;
        var it = F / tz;
        sg[o] = Px; sg[o + 1] = Py; sg[o + 2] = pz;
        sg[o + 3] = cx + (px + M00 * ex + M01 * ey + M02 * ez) * it; sg[o + 4] = cy - (py + M10 * ex + M11 * ey + M12 * ez) * it; sg[o + 5] = tz;
        sc[n++] = c; o += 6;
      }
    }
  }
  if (hs > 0) cpuSegs2(n, F * hs, CPU.z, CPU.z2);
  else cpuSegs(n, CPU.z);
}
/* draw the first n lines of the list, in their own colours, with depth (as cpuLine) */
function cpuSegs(n, zb) {
  var w = CPU.w, h = CPU.h, col = CPU.col, sg = SEG, sc = SEGC, W1 = w - 1, H1 = h - 1, lim = 4 * (w + h);
  for (var i = 0, j = 0; i < n; i++, j += 6) {
    var x0 = sg[j], y0 = sg[j + 1], z0 = sg[j + 2], x1 = sg[j + 3], y1 = sg[j + 4], z1 = sg[j + 5], c = sc[i];
    var dx = x1 - x0, dy = y1 - y0, adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
    var m = Math.ceil(adx > ady ? adx : ady) || 1;
    if (m > lim) continue;
    var s = 1 / m, sx = dx * s, sy = dy * s, sz = (z1 - z0) * s, x = x0 + 0.5, y = y0 + 0.5, z = z0, k, o;
    if (x0 >= 0 && y0 >= 0 && x1 >= 0 && y1 >= 0 && x0 < W1 && x1 < W1 && y0 < H1 && y1 < H1) {
      for (k = 0; k <= m; k++) {
        o = (y | 0) * w + (x | 0);
        if (z <= zb[o]) { zb[o] = z; col[o] = c; }
        x += sx; y += sy; z += sz;
      }
    } else {
      for (k = 0; k <= m; k++) {
        var xi = Math.floor(x), yi = Math.floor(y);
        if (xi >= 0 && yi >= 0 && xi < w && yi < h) {
          o = yi * w + xi;
          if (z <= zb[o]) { zb[o] = z; col[o] = c; }
        }
        x += sx; y += sy; z += sz;
      }
    }
  }
}
/* the same for both eyes of an anaglyph at once: the left eye's line (x + sF / z) in the red
   channel with depth buffer zl, the right eye's (x - sF / z) in green and blue with zr; the
   two lines share their rows, their depths and their steps */
function cpuSegs2(n, sF, zl, zr) {
  var w = CPU.w, h = CPU.h, col = CPU.col, sg = SEG, W1 = w - 1, H1 = h - 1, lim = 4 * (w + h);
  var cl = (0xff000000 | 235) | 0, cr = (0xff000000 | 235 << 16 | 235 << 8) | 0;
  for (var i = 0, j = 0; i < n; i++, j += 6) {
    var x0 = sg[j], y0 = sg[j + 1], z0 = sg[j + 2], x1 = sg[j + 3], y1 = sg[j + 4], z1 = sg[j + 5];
    var a0 = sF / z0, a1 = sF / z1, l0 = x0 + a0, r0 = x0 - a0;
    var dl = x1 + a1 - l0, dr = x1 - a1 - r0, dy = y1 - y0, adl = dl < 0 ? -dl : dl, adr = dr < 0 ? -dr : dr, ady = dy < 0 ? -dy : dy;
    if (adr > adl) adl = adr;
    var m = Math.ceil(adl > ady ? adl : ady) || 1;
    if (m > lim) continue;
    var s = 1 / m, sl = dl * s, sr = dr * s, sy = dy * s, sz = (z1 - z0) * s, xl = l0 + 0.5, xr = r0 + 0.5, y = y0 + 0.5, z = z0, k, o, row;
    var lo = r0 < r0 + dr ? r0 : r0 + dr, hi = l0 > l0 + dl ? l0 : l0 + dl;   /* the right eye's line is left of the left eye's */
    if (lo >= 0 && hi < W1 && y0 >= 0 && y1 >= 0 && y0 < H1 && y1 < H1 && sF >= 0) {
      for (k = 0; k <= m; k++) {
        row = (y | 0) * w;
        o = row + (xl | 0);
        if (z <= zl[o]) { zl[o] = z; col[o] = (col[o] & 0xffff00) | cl; }
        o = row + (xr | 0);
        if (z <= zr[o]) { zr[o] = z; col[o] = (col[o] & 0xff) | cr; }
        xl += sl; xr += sr; y += sy; z += sz;
      }
    } else {
      for (k = 0; k <= m; k++) {
        var yi = Math.floor(y), xa = Math.floor(xl), xb = Math.floor(xr);
        if (yi >= 0 && yi < h) {
          row = yi * w;
          if (xa >= 0 && xa < w) { o = row + xa; if (z <= zl[o]) { zl[o] = z; col[o] = (col[o] & 0xffff00) | cl; } }
          if (xb >= 0 && xb < w) { o = row + xb; if (z <= zr[o]) { zr[o] = z; col[o] = (col[o] & 0xff) | cr; } }
        }
        xl += sl; xr += sr; y += sy; z += sz;
      }
    }
  }
}
/* the arc grains' outlines (OUT), each a convex polygon at its centre's depth: filled with a
   shade of its colour (fill) and edged, or edged alone (the wire style) */
function cpuOutlines(w, h, B, E, fill, pass, zb, pe, mask) {
  var F = (h / 2) / Math.tan(cam.fov / 2), cx = w / 2, cy = h / 2, near = cam.near, col = CPU.col;
  var g0 = st.frame * NG * NS, X = [], Y = [];
  for (var k = 0; k < NG; k++) {
    var o = OUT[D.tid[k]];
    if (!o) continue;
    var g = g0 + NS * k, z0 = 0, ok = true;
    if (!VIS[k]) continue;   /* not in this frame, or clipped */
    var ex = rot(g, [1, 0, 0]), ey = rot(g, [0, 1, 0]);
    X.length = Y.length = 0;
    for (var i = 0; i < o.length && ok; i += 2) {
      var px = S[g] + ex[0] * o[i] + ey[0] * o[i + 1] - E[0], py = S[g + 1] + ex[1] * o[i] + ey[1] * o[i + 1] - E[1], pz = S[g + 2] + ex[2] * o[i] + ey[2] * o[i + 1] - E[2];
      var z = px * B.f[0] + py * B.f[1] + pz * B.f[2];
      if (z < near) { ok = false; break; }
      X.push(cx + F * (px * B.r[0] + py * B.r[1] + pz * B.r[2]) / z); Y.push(cy - F * (px * B.u[0] + py * B.u[1] + pz * B.u[2]) / z);
      z0 = Math.max(z0, z);
    }
    if (!ok) continue;
    var pb = pass ? 0 : 256 * GC[k];
    var n = X.length, edge = pe[pb + (8 << 3)];
    if (fill) {
      var ya = Infinity, yb = -Infinity, c32 = pe[pb + (24 << 3)];
      for (var i = 0; i < n; i++) { ya = Math.min(ya, Y[i]); yb = Math.max(yb, Y[i]); }
      for (var y = Math.max(0, Math.ceil(ya - 0.5)); y <= Math.min(h - 1, Math.floor(yb - 0.5)); y++) {
        var yc = y + 0.5, xl = Infinity, xr = -Infinity;
        for (var e = 0; e < n; e++) {
          var e1 = (e + 1) % n;
          if ((Y[e] <= yc) !== (Y[e1] <= yc)) { var xi = X[e] + (yc - Y[e]) / (Y[e1] - Y[e]) * (X[e1] - X[e]); xl = Math.min(xl, xi); xr = Math.max(xr, xi); }
        }
        for (var x = Math.max(0, Math.ceil(xl - 0.5)), o2 = y * w + x; x <= Math.min(w - 1, Math.floor(xr - 0.5)); x++, o2++)
          if (z0 < zb[o2]) { zb[o2] = z0; col[o2] = (col[o2] & mask) | c32; }
      }
    }
    for (var i = 0; i < n; i++) cpuLine(X[i], Y[i], z0 - 1e-9 * z0, X[(i + 1) % n], Y[(i + 1) % n], z0 - 1e-9 * z0, edge, mask, zb, false);
  }
}
function cpuScene(w, h, B, shift, pass, zb) {
  var E = [B.E[0] + shift * B.r[0], B.E[1] + shift * B.r[1], B.E[2] + shift * B.r[2]];
  var F = (h / 2) / Math.tan(cam.fov / 2), cx = w / 2, cy = h / 2, f = B.f, r = B.r, u = B.u, near = cam.near;
  var col = CPU.col, pal = CPU.pal, mask = pass === 2 ? 0xff : pass === 1 ? 0xffff00 : 0;
  var E0 = E[0], E1 = E[1], E2 = E[2], f0 = f[0], f1 = f[1], f2 = f[2], r0 = r[0], r1 = r[1], r2 = r[2], u0 = u[0], u1 = u[1], u2 = u[2];
  function proj(p) {
    var qx = p[0] - E0, qy = p[1] - E1, qz = p[2] - E2, z = qx * f0 + qy * f1 + qz * f2;
    if (z < near) return null;
    return [cx + F * (qx * r0 + qy * r1 + qz * r2) / z, cy - F * (qx * u0 + qy * u1 + qz * u2) / z, z];
  }
  function mono(c) {   /* an eye's channel(s) of intensity c (0..255) */
    return pass === 1 ? (0xff000000 | c) >>> 0 : pass === 2 ? (0xff000000 | c << 16 | c << 8) >>> 0 : c;
  }
  function rgb32(c) { return pass ? mono(255) : (255 << 24 | Math.round(255 * c[2]) << 16 | Math.round(255 * c[1]) << 8 | Math.round(255 * c[0])) >>> 0; }
  function line(a, b, c32, zw) { cpuLine(a[0], a[1], a[2], b[0], b[1], b[2], c32, mask, zb, zw); }
  /* a 2D run's plane (triangles), behind everything, no depth */
  if (CONT.P.length && !pass) {
    var pc = rgb32([0.91, 0.93, 0.96]);
    for (var t = 0; t + 2 < CONT.P.length; t += 3) {
      var A = proj(CONT.P[t]), Bq = proj(CONT.P[t + 1]), C = proj(CONT.P[t + 2]);
      if (!A || !Bq || !C) continue;
      var V = [A, Bq, C], y0 = Math.max(0, Math.ceil(Math.min(A[1], Bq[1], C[1]) - 0.5)), y1 = Math.min(h - 1, Math.floor(Math.max(A[1], Bq[1], C[1]) - 0.5));
      for (var y = y0; y <= y1; y++) {
        var yc = y + 0.5, xl = Infinity, xr = -Infinity;
        for (var e = 0; e < 3; e++) {
          var P0 = V[e], P1 = V[(e + 1) % 3];
          if ((P0[1] <= yc) !== (P1[1] <= yc)) { var xi = P0[0] + (yc - P0[1]) / (P1[1] - P0[1]) * (P1[0] - P0[0]); xl = Math.min(xl, xi); xr = Math.max(xr, xi); }
        }
        var a0 = Math.max(0, Math.ceil(xl - 0.5)), a1 = Math.min(w - 1, Math.floor(xr - 0.5));
        if (a1 >= a0) col.fill(pc, y * w + a0, y * w + a1 + 1);
      }
    }
  }
  if (st.network === "alone") {}   /* the force network without the grains */
  else if (st.style === "solid") {
    /* each disc's pixels from its palette: the colour's shades, or an eye's channel(s) of the grey's */
    var spr = CPU.spr, pe = pass ? CPU.eye[pass] : pal;
    if (ARCS) cpuOutlines(w, h, B, E, true, pass, zb, pe, mask);
    for (var p = 0; p < ncomp; p++) {
      if (ARCS && OUT[D.tid[CG[p]]]) continue;   /* an arc grain: drawn as its outline */
      var qx = W[3 * p] - E0, qy = W[3 * p + 1] - E1, qz = W[3 * p + 2] - E2, z = qx * f0 + qy * f1 + qz * f2;
      if (!(z >= near)) continue;   /* behind the eye, or not in this frame (NaN) */
      var sx = cx + F * (qx * r0 + qy * r1 + qz * r2) / z, sy = cy - F * (qx * u0 + qy * u1 + qz * u2) / z, R = CR[p];
      var q = Math.max(2, Math.min(2048, Math.round(4 * F * R / z))), s = spr[q] || (spr[q] = cpuSprite(q));
      var ix = Math.round(sx), iy = Math.round(sy), ri = s.ri;
      if (ix + ri < 0 || iy + ri < 0 || ix - ri >= w || iy - ri >= h) continue;
      var base = iy * w + ix, off = s.off, K = s.k, NZ = s.nz, n = off.length;
      var pb = pass ? 0 : 256 * GC[CG[p]];
      if (ix - ri >= 0 && iy - ri >= 0 && ix + ri < w && iy + ri < h) {   /* the whole disc on the picture: no bounds tests */
        for (var j = 0; j < n; j++) {
          var o = base + off[j], d = z - R * NZ[j];
          if (d < zb[o]) { zb[o] = d; col[o] = (col[o] & mask) | pe[pb + K[j]]; }
        }
      } else {
        for (var j = 0; j < n; j++) {
          var xx = ix + s.dx[j], yy = iy + s.dy[j];
          if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
          var o = base + off[j], d = z - R * NZ[j];
          if (d < zb[o]) { zb[o] = d; col[o] = (col[o] & mask) | pe[pb + K[j]]; }
        }
      }
    }
  } else {
    /* wire frames: both eyes of an anaglyph in its first pass */
    var WC = [];
    for (var i = 0; i < ALL3.length; i++) WC.push(pass ? 0 : rgb32(ALL3[i]) | 0);
    if (pass === 0) cpuWire(w, h, B, 0, WC);
    else if (pass === 1) cpuWire(w, h, B, -shift, WC);
    if (ARCS) cpuOutlines(w, h, B, E, false, pass, zb, pass ? CPU.eye[pass] : CPU.pal, mask);
  }
  /* the container's lines, hidden behind grains */
  var lc = pass ? mono(255) : rgb32([0.33, 0.36, 0.42]);
  for (var i = 0; i + 1 < CONT.L.length; i += 2) {
    var a = proj(CONT.L[i]), b = proj(CONT.L[i + 1]);
    if (a && b) line(a, b, lc, false);
  }
}
function drawCPU(w, h, B) {
  if (!CPU || CPU.w !== w || CPU.h !== h) cpuInit(w, h);
  var col = CPU.col, zb = CPU.z;
  zb.fill(Infinity);
  if (st.stereo === "anaglyph") {
    var eye = st.eye * 0.08 * size;   /* eye distance: 0 to 8 % of the scene */
    col.fill(0xff000000);
    if (st.style === "wire") {   /* the wire frames of both eyes at once (cpuWire), then each eye's container */
      CPU.z2.fill(Infinity);
      cpuScene(w, h, B, -eye / 2, 1, zb);
      cpuScene(w, h, B, eye / 2, 2, CPU.z2);
    } else {
      cpuScene(w, h, B, -eye / 2, 1, zb);
      zb.fill(Infinity);
      cpuScene(w, h, B, eye / 2, 2, zb);
    }
  } else {
    col.fill(0xfffcfbfb);
    cpuScene(w, h, B, 0, 0, zb);
  }
  ctx.putImageData(CPU.img, 0, 0);
}

/* ---- WebGL ---- */
var G = null;
function glInit() {
  var fd = H.fragdepth !== "0" && !!gl.getExtension("EXT_frag_depth");
  function sh(type, src) {
    var o = gl.createShader(type); gl.shaderSource(o, src); gl.compileShader(o);
    if (!gl.getShaderParameter(o, gl.COMPILE_STATUS)) throw new Error("shader: " + gl.getShaderInfoLog(o));
    return o;
  }
  function prog(vs, fs) {
    var p = gl.createProgram(); gl.attachShader(p, sh(gl.VERTEX_SHADER, vs)); gl.attachShader(p, sh(gl.FRAGMENT_SHADER, fs)); gl.linkProgram(p);
    if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error("program: " + gl.getProgramInfoLog(p));
    return p;
  }
  var common = "uniform vec3 E, fw, rt, up; uniform float F, hw, hh, near, far;\n" +
    "vec4 project(vec3 p, out float z) { vec3 q = p - E; z = dot(q, fw);\n" +
    "  float zn = z < near ? 2.0 : clamp((z - near) / (far - near), 0.0, 1.0) * 2.0 - 1.0;\n" +
    "  return vec4(F * dot(q, rt) / (z * hw), F * dot(q, up) / (z * hh), zn, 1.0); }\n";
  var sv = common + "attribute vec3 pos; attribute float rad; attribute vec3 col; uniform float maxpt;\n" +
    "varying vec3 vc; varying float vz, vr;\n" +
    "void main() { float z; gl_Position = project(pos, z); vc = col; vz = z; vr = rad;\n" +
    "  gl_PointSize = clamp(2.0 * F * rad / max(z, near), 1.0, maxpt); }\n";
  var sf = (fd ? "#extension GL_EXT_frag_depth : enable\n" : "") + "precision mediump float;\n" +
    "varying vec3 vc; varying float vz, vr; uniform float dnear, dfar, mono;\n" +
    "void main() { vec2 d = gl_PointCoord * 2.0 - 1.0; float r2 = dot(d, d); if (r2 > 1.0) discard;\n" +
    "  vec3 n = vec3(d.x, -d.y, sqrt(1.0 - r2)); vec3 L = normalize(vec3(-0.45, 0.55, 0.75));\n" +
    "  float df = max(dot(n, L), 0.0), sp = pow(max(dot(reflect(-L, n), vec3(0.0, 0.0, 1.0)), 0.0), 28.0);\n" +
    "  vec3 c = mono > 0.5 ? vec3(dot(vc, vec3(0.3, 0.59, 0.11)) * 0.6 + 0.4) : vc;\n" +
    "  gl_FragColor = vec4(c * (0.22 + 0.78 * df) + 0.4 * sp, 1.0);\n" +
    (fd ? "  gl_FragDepthEXT = clamp((vz - vr * n.z - dnear) / (dfar - dnear), 0.0, 1.0);\n" : "") + "}\n";
  var lv = common + "attribute vec3 pos; attribute vec3 col; varying vec3 vc;\n" +
    "void main() { float z; gl_Position = project(pos, z); vc = col; }\n";
  var lf = "precision mediump float; varying vec3 vc; uniform float mono;\n" +
    "void main() { gl_FragColor = vec4(mono > 0.5 ? vec3(1.0) : vc, 1.0); }\n";
  G = { sp: prog(sv, sf), lp: prog(lv, lf), pos: gl.createBuffer(), rad: gl.createBuffer(), col: gl.createBuffer(),
        lpos: gl.createBuffer(), lcol: gl.createBuffer(), maxpt: gl.getParameter(gl.ALIASED_POINT_SIZE_RANGE)[1], fragdepth: fd };
  var r32 = new Float32Array(ncomp); for (var p = 0; p < ncomp; p++) r32[p] = CR[p];
  gl.bindBuffer(gl.ARRAY_BUFFER, G.rad); gl.bufferData(gl.ARRAY_BUFFER, r32, gl.STATIC_DRAW);
  G.p32 = new Float32Array(3 * ncomp); G.c32 = new Float32Array(3 * ncomp);
  G.w32 = new Float32Array(24 * ncomp); G.wc32 = new Float32Array(24 * ncomp);
}
function rgb(col) {
  var m = col.match(/\d+/g);
  if (col[0] === "#") return [parseInt(col.substr(1, 2), 16) / 255, parseInt(col.substr(3, 2), 16) / 255, parseInt(col.substr(5, 2), 16) / 255];
  return [m[0] / 255, m[1] / 255, m[2] / 255];
}
var TYPE3 = TYPE.map(rgb), SPEED3 = SPEEDC.map(rgb), ALL3 = TYPE3.concat(SPEED3, [[0.85, 0.85, 0.85]]);
/* the walls' lines (and a 2D run's plane as triangles), in world coordinates, from the
 * shapes they are drawn with (D.walls: boxes, spheres and quadrilaterals; the page knows no
 * kind of wall) */
function containerLines() {
  var L = [], P = [];
  D.walls.forEach(function (s) {
    var p = s.p;
    if (s.shape === "box" && D.dim === 2) {   /* its rectangle, the plane inside it */
      var q = [[p[0][0], p[0][1], 0], [p[1][0], p[0][1], 0], [p[1][0], p[1][1], 0], [p[0][0], p[1][1], 0]];
      for (var i = 0; i < 4; i++) L.push(q[i], q[(i + 1) % 4]);
      P.push(q[0], q[1], q[2], q[0], q[2], q[3]);
    } else if (s.shape === "box") {   /* its twelve edges */
      var corner = function (i) { return [p[i & 1 ? 1 : 0][0], p[i & 2 ? 1 : 0][1], p[i & 4 ? 1 : 0][2]]; };
      for (var i = 0; i < 8; i++) for (var k = 0; k < 3; k++) {
        var j = i | (1 << k);
        if (j !== i) L.push(corner(i), corner(j));
      }
    } else if (s.shape === "quad") {
      for (var i = 0; i < 4; i++) L.push(p[i], p[(i + 1) % 4]);
    } else if (s.shape === "sphere") {   /* three great circles (2D: its circle, the disc inside) */
      var c = p[0], R = s.r, rings = D.dim === 2 ? [[0, 0, 1]] : [[0, 0, 1], [1, 0, 0], [0, 1, 0]];
      for (var k = 0; k < rings.length; k++) {
        var n = rings[k], a1 = n[2] ? [1, 0, 0] : [0, 0, 1], a2 = [n[1] * a1[2] - n[2] * a1[1], n[2] * a1[0] - n[0] * a1[2], n[0] * a1[1] - n[1] * a1[0]], prev = null;
        for (var i = 0; i <= 96; i++) {
          var t = 2 * Math.PI * i / 96, u = Math.cos(t), v = Math.sin(t);
          var q3 = [c[0] + R * (u * a1[0] + v * a2[0]), c[1] + R * (u * a1[1] + v * a2[1]), (D.dim === 2 ? 0 : c[2]) + R * (u * a1[2] + v * a2[2])];
          if (prev) L.push(prev, q3);
          if (D.dim === 2 && prev) P.push([c[0], c[1], 0], prev, q3);
          prev = q3;
        }
      }
    }
  });
  return { L: L, P: P };
}
var CONT = containerLines();
function glLines(list, colour, mode) {
  if (!list.length) return;
  var n = list.length, p = new Float32Array(3 * n), c = new Float32Array(3 * n);
  for (var i = 0; i < n; i++) { p.set(list[i], 3 * i); c.set(colour, 3 * i); }
  glDrawLines(p, c, n, mode);
}
function glDrawLines(p, c, n, mode) {
  var pr = G.lp; gl.useProgram(pr);
  var ap = gl.getAttribLocation(pr, "pos"), ac = gl.getAttribLocation(pr, "col");
  gl.bindBuffer(gl.ARRAY_BUFFER, G.lpos); gl.bufferData(gl.ARRAY_BUFFER, p.subarray(0, 3 * n), gl.STREAM_DRAW);
  gl.enableVertexAttribArray(ap); gl.vertexAttribPointer(ap, 3, gl.FLOAT, false, 0, 0);
  gl.bindBuffer(gl.ARRAY_BUFFER, G.lcol); gl.bufferData(gl.ARRAY_BUFFER, c.subarray(0, 3 * n), gl.STREAM_DRAW);
  gl.enableVertexAttribArray(ac); gl.vertexAttribPointer(ac, 3, gl.FLOAT, false, 0, 0);
  gl.drawArrays(mode, 0, n);
  gl.disableVertexAttribArray(ap); gl.disableVertexAttribArray(ac);
}
function glUniforms(pr, B, shift, w, h, mono) {
  var E = [B.E[0] + shift * B.r[0], B.E[1] + shift * B.r[1], B.E[2] + shift * B.r[2]];
  gl.useProgram(pr);
  gl.uniform3fv(gl.getUniformLocation(pr, "E"), E); gl.uniform3fv(gl.getUniformLocation(pr, "fw"), B.f);
  gl.uniform3fv(gl.getUniformLocation(pr, "rt"), B.r); gl.uniform3fv(gl.getUniformLocation(pr, "up"), B.u);
  gl.uniform1f(gl.getUniformLocation(pr, "F"), (h / 2) / Math.tan(cam.fov / 2));
  gl.uniform1f(gl.getUniformLocation(pr, "hw"), w / 2); gl.uniform1f(gl.getUniformLocation(pr, "hh"), h / 2);
  gl.uniform1f(gl.getUniformLocation(pr, "near"), cam.near); gl.uniform1f(gl.getUniformLocation(pr, "far"), cam.dist + 4 * size);
  gl.uniform1f(gl.getUniformLocation(pr, "mono"), mono ? 1 : 0);
  var mp = gl.getUniformLocation(pr, "maxpt"); if (mp) gl.uniform1f(mp, G.maxpt);
  var dn = gl.getUniformLocation(pr, "dnear"); if (dn) gl.uniform1f(dn, cam.near);
  var df = gl.getUniformLocation(pr, "dfar"); if (df) gl.uniform1f(df, cam.dist + 4 * size);
}
/* one eye: container, plane, grains */
function glScene(B, shift, w, h, mono) {
  var line = mono ? [1, 1, 1] : [0.33, 0.36, 0.42];
  glUniforms(G.lp, B, shift, w, h, mono);
  if (CONT.P.length && !mono) { gl.depthMask(false); glLines(CONT.P, [0.91, 0.93, 0.96], gl.TRIANGLES); gl.depthMask(true); }
  glLines(CONT.L, line, gl.LINES);
  var g0 = st.frame * NG * NS;
  if (st.network === "alone") {}   /* the force network without the grains */
  else if (st.style === "solid") {
    for (var p = 0; p < ncomp; p++) {
      G.p32[3 * p] = W[3 * p]; G.p32[3 * p + 1] = W[3 * p + 1]; G.p32[3 * p + 2] = W[3 * p + 2];
      if (W[3 * p] !== W[3 * p]) { G.p32[3 * p] = B.E[0]; G.p32[3 * p + 1] = B.E[1]; G.p32[3 * p + 2] = B.E[2]; continue; }   /* not in this frame: at the eye, clipped */
      var c = ALL3[GC[CG[p]]];
      G.c32[3 * p] = c[0]; G.c32[3 * p + 1] = c[1]; G.c32[3 * p + 2] = c[2];
    }
    var pr = G.sp; glUniforms(pr, B, shift, w, h, mono);
    var ap = gl.getAttribLocation(pr, "pos"), ar = gl.getAttribLocation(pr, "rad"), ac = gl.getAttribLocation(pr, "col");
    gl.bindBuffer(gl.ARRAY_BUFFER, G.pos); gl.bufferData(gl.ARRAY_BUFFER, G.p32, gl.STREAM_DRAW);
    gl.enableVertexAttribArray(ap); gl.vertexAttribPointer(ap, 3, gl.FLOAT, false, 0, 0);
    gl.bindBuffer(gl.ARRAY_BUFFER, G.rad); gl.enableVertexAttribArray(ar); gl.vertexAttribPointer(ar, 1, gl.FLOAT, false, 0, 0);
    gl.bindBuffer(gl.ARRAY_BUFFER, G.col); gl.bufferData(gl.ARRAY_BUFFER, G.c32, gl.STREAM_DRAW);
    gl.enableVertexAttribArray(ac); gl.vertexAttribPointer(ac, 3, gl.FLOAT, false, 0, 0);
    gl.drawArrays(gl.POINTS, 0, ncomp);
    gl.disableVertexAttribArray(ap); gl.disableVertexAttribArray(ar); gl.disableVertexAttribArray(ac);
  } else {
    /* wire frames: centre of mass to each component, three radii per component */
    var n = 0, P = G.w32, Cc = G.wc32;
    for (var p = 0; p < ncomp; p++) {
      if (!VIS[CG[p]]) continue;   /* not in this frame, or clipped */
      var g = g0 + NS * CG[p], c = ALL3[GC[CG[p]]], R = CR[p];
      var px = W[3 * p], py = W[3 * p + 1], pz = W[3 * p + 2];
      P[3 * n] = S[g]; P[3 * n + 1] = S[g + 1]; P[3 * n + 2] = S[g + 2]; n++;
      P[3 * n] = px; P[3 * n + 1] = py; P[3 * n + 2] = pz; n++;
      for (var a = 0; a < 3; a++) {
        var e = rot(g, [RAD[9 * p + 3 * a], RAD[9 * p + 3 * a + 1], RAD[9 * p + 3 * a + 2]]);
        P[3 * n] = px; P[3 * n + 1] = py; P[3 * n + 2] = pz; n++;
        P[3 * n] = px + R * e[0]; P[3 * n + 1] = py + R * e[1]; P[3 * n + 2] = pz + R * e[2]; n++;
      }
      for (var i = n - 8; i < n; i++) { Cc[3 * i] = c[0]; Cc[3 * i + 1] = c[1]; Cc[3 * i + 2] = c[2]; }
    }
    glUniforms(G.lp, B, shift, w, h, mono);
    glDrawLines(P, Cc, n, gl.LINES);
  }
}
function drawGL(w, h, B) {
  if (!G) {
    try { glInit(); }
    catch (e) {   /* a WebGL that cannot run the shaders: the CPU instead */
      console.log("pala view: WebGL unusable (" + e.message + "), drawing on the CPU");
      gl = null; setRenderer("cpu"); return;
    }
  }
  gl.viewport(0, 0, w, h); gl.enable(gl.DEPTH_TEST); gl.depthFunc(gl.LEQUAL);
  gl.colorMask(true, true, true, true);
  if (st.stereo === "anaglyph") {
    var eye = st.eye * 0.08 * size;
    gl.clearColor(0, 0, 0, 1); gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.colorMask(true, false, false, true); glScene(B, -eye / 2, w, h, true);
    gl.clear(gl.DEPTH_BUFFER_BIT);
    gl.colorMask(false, true, true, true); glScene(B, eye / 2, w, h, true);
    gl.colorMask(true, true, true, true);
  } else {
    gl.clearColor(0.984, 0.984, 0.988, 1); gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    glScene(B, 0, w, h, false);
  }
}
function fmt(v, n) {
  if (v === null || v === undefined || !isFinite(v)) return "-";
  return v !== 0 && Math.abs(v) < 1e-3 ? Number(v).toExponential(n - 1) : Number(v).toPrecision(n);
}
function draw() {
  var t0 = performance.now();
  var w = canvas.width, h = canvas.height;
  place(st.frame);
  var B = basis();
  if (st.renderer === "webgl") drawGL(w, h, B);
  else drawCPU(w, h, B);
  overlay(w, h, B);
  var f = st.frame;
  document.getElementById("info").textContent =
    D.name + "\n" + "frame " + f + " / " + (NF - 1) + (D.every > 1 ? "  (every " + D.every + "th of " + D.frames_total + ")" : "") +
    "\nt       " + fmt(D.time[f], 6) + " s\nstep    " + D.step[f] + "\nE_total " + fmt(D.E[f], 8) + " J\ndE_rel  " + fmt(D.dE[f], 3) +
    "\n" + NG + " grains, " + ncomp + " spheres" + (D.dim === 2 ? ", 2D (plane z = 0)" : "") +
    (st.clip ? "\nclip: " + st.drawn + " grains with " + st.clip.replace("-", "") + (st.clip.charAt(0) === "-" ? " > " : " < ") + fmt(clipAt(), 4) + " m" : "") +
    (NET ? "\ncontacts: " + (D.chave[f] ? (D.noff[f + 1] - D.noff[f]) : "none at this step") : "") +
    "\neye: yaw " + Math.round(cam.yaw * 180 / Math.PI) + "\u00b0 pitch " + Math.round(cam.pitch * 180 / Math.PI) + "\u00b0 distance " + fmt(cam.dist, 3) + " m";
  document.getElementById("scrub").value = f;
  st.lastDraw = performance.now() - t0;
  return st.lastDraw;
}
function resize() {
  var bar = document.getElementById("bar").offsetHeight;
  canvas.width = Math.max(200, window.innerWidth); canvas.height = Math.max(150, window.innerHeight - bar);
  canvas.style.width = canvas.width + "px"; canvas.style.height = canvas.height + "px";
  OV.width = canvas.width; OV.height = canvas.height;
}
/* ---- the overlay: a 2D canvas over the picture with the force network and the legend (the
   PNG is the picture with the overlay on it) ---- */
var OV = document.getElementById("ov"), OC = OV.getContext("2d");
function overlay(w, h, B) {
  OC.clearRect(0, 0, w, h);
  if (st.network) network(w, h, B);
  legend(w);
}
/* the contact-force network of the frame: a line per contact between the centres of the two
   component spheres (a wall's contact: from the sphere's centre to the contact point), its
   width proportional to the contact's |f| (6 px for the frame's largest, at least half a
   pixel), drawn over the grains (st.network "1") or instead of them ("alone"); a contact of
   a grain not drawn (clipped) is left out */
function frameFmax() {   /* the largest |f| of the frame's contacts */
  var m = 0;
  for (var q = NET && D.chave[st.frame] ? D.noff[st.frame] : 0; NET && q < D.noff[st.frame + 1]; q++) m = Math.max(m, NET[8 * q + 4]);
  return m;
}
function network(w, h, B) {
  st.lines = 0;
  if (!NET || !D.chave[st.frame]) return;
  var F = (h / 2) / Math.tan(cam.fov / 2), cx = w / 2, cy = h / 2, E = B.E, fmax = frameFmax();
  if (!(fmax > 0)) fmax = 1;
  function proj(x, y, z) {
    var qx = x - E[0], qy = y - E[1], qz = z - E[2], d = qx * B.f[0] + qy * B.f[1] + qz * B.f[2];
    if (!(d >= cam.near)) return null;
    return [cx + F * (qx * B.r[0] + qy * B.r[1] + qz * B.r[2]) / d, cy - F * (qx * B.u[0] + qy * B.u[1] + qz * B.u[2]) / d];
  }
  OC.strokeStyle = st.stereo === "anaglyph" ? "rgba(255,255,255,0.9)" : "rgba(150,20,30,0.9)"; OC.lineCap = "round";
  for (var q = D.noff[st.frame]; q < D.noff[st.frame + 1]; q++) {
    var o = 8 * q, i = NET[o], j = NET[o + 2], a, b;
    if (i >= NG || !VIS[i] || j >= NG || (j >= 0 && !VIS[j])) continue;
    var pi = GP0[i] + NET[o + 1];
    a = proj(W[3 * pi], W[3 * pi + 1], W[3 * pi + 2]);
    if (j >= 0) { var pj = GP0[j] + NET[o + 3]; b = proj(W[3 * pj], W[3 * pj + 1], W[3 * pj + 2]); }
    else b = proj(NET[o + 5], NET[o + 6], NET[o + 7]);
    if (!a || !b) continue;
    OC.lineWidth = Math.max(0.5, 6 * NET[o + 4] / fmax);
    OC.beginPath(); OC.moveTo(a[0], a[1]); OC.lineTo(b[0], b[1]); OC.stroke();
    st.lines++;
  }
}
/* the legend of the colouring, always drawn (top right): the types' colours and names, or the
   field's 16 levels with its least, middle and largest value and unit; grey where a field has
   no value; the network's scale */
function legend(w) {
  var F = FIELDS[st.colour] || FIELDS.type, rows = [], x0 = w - 178, y0 = 40, lh = 15;
  OC.font = "12px \"DejaVu Sans\", Helvetica, Arial, sans-serif"; OC.textBaseline = "middle";
  var cat = !F.v, names = [];
  if (cat) D.templates.forEach(function (T) { if (names.indexOf(T.name) < 0 && T.colour === names.length) names.push(T.name); });
  var nrow = cat ? Math.min(names.length, 12) : 0, barh = cat ? 0 : 16 * 8;
  var title = F.title + (F.unit ? " (" + F.unit + ")" : ""), bw = Math.max(170, OC.measureText(title).width + 16);
  x0 = w - bw - 8;
  var grey = F.contacts && (!GF || !D.chave[st.frame]), hgt = 26 + nrow * lh + barh + (grey ? lh + 4 : 0) + (st.network && NET ? 2 * lh + 4 : 0) + 8;
  OC.fillStyle = "rgba(0,0,0,0.6)"; OC.fillRect(x0, y0, bw, hgt);
  OC.fillStyle = "#fff"; OC.fillText(title, x0 + 8, y0 + 13);
  var y = y0 + 28;
  if (cat) {
    for (var i = 0; i < nrow; i++) {
      OC.fillStyle = TYPE[i % 10]; OC.fillRect(x0 + 8, y, 14, 11);
      OC.fillStyle = "#fff"; OC.fillText(i === 11 && names.length > 12 ? "+" + (names.length - 11) + " more" : names[i], x0 + 28, y + 6);
      y += lh;
    }
  } else {
    range(F);
    for (var l = 0; l < 16; l++) { OC.fillStyle = SPEEDC[15 - l]; OC.fillRect(x0 + 8, y + 8 * l, 18, 8); }
    OC.fillStyle = "#fff";
    var mid = (F.lo + F.hi) / 2, lab = function (v) { return F.int && v === Math.round(v) ? String(v) : fmt(v, 4); };
    OC.fillText(lab(F.hi), x0 + 32, y + 4); OC.fillText(lab(mid), x0 + 32, y + 64); OC.fillText(lab(F.lo), x0 + 32, y + 124);
    y += barh + 4;
  }
  if (grey) {
    OC.fillStyle = "rgb(217,217,217)"; OC.fillRect(x0 + 8, y, 14, 11);
    OC.fillStyle = "#fff"; OC.fillText(GF ? "no contacts at this step" : "no contacts (contacts_every)", x0 + 28, y + 6); y += lh + 4;
  }
  if (st.network && NET) {
    OC.strokeStyle = "rgb(230,60,70)"; OC.lineWidth = 6; OC.beginPath(); OC.moveTo(x0 + 8, y + 6); OC.lineTo(x0 + 26, y + 6); OC.stroke();
    OC.fillStyle = "#fff"; OC.fillText("|f| = " + fmt(frameFmax(), 3) + " N", x0 + 32, y + 6);
    OC.fillText("width \u221d |f|", x0 + 32, y + 6 + lh);
  }
  st.legend = { title: F.title, x: x0, y: y0, w: bw, h: hgt };
}
/* the picture as a PNG (the view with its overlay, a line naming the run, frame and time) */
function pngData() {
  var w = canvas.width, h = canvas.height, c = document.createElement("canvas"), x = c.getContext("2d");
  c.width = w; c.height = h;
  x.drawImage(canvas, 0, 0); x.drawImage(OV, 0, 0);
  var line = D.name + "   frame " + st.frame + "   step " + D.step[st.frame] + "   t = " + fmt(D.time[st.frame], 6) + " s";
  x.font = "12px \"DejaVu Sans\", Helvetica, Arial, sans-serif"; x.textBaseline = "middle";
  x.fillStyle = "rgba(0,0,0,0.6)"; x.fillRect(0, h - 20, Math.min(w, x.measureText(line).width + 16), 20);
  x.fillStyle = "#fff"; x.fillText(line, 8, h - 10);
  return c.toDataURL("image/png");
}
function savePNG() {
  var u = pngData(), a = document.createElement("a");
  document.body.setAttribute("data-png", u);
  a.href = u; a.download = D.name + "-frame-" + st.frame + ".png";
  document.body.appendChild(a); a.click(); a.remove();
  return u;
}
/* playing */
var timer = null;
function setPlay(on) {
  st.playing = on; document.getElementById("play").innerHTML = on ? "&#10074;&#10074;" : "&#9654;";
  if (timer) { clearTimeout(timer); timer = null; }
  if (on) tick();
}
function tick() {
  if (!st.playing) return;
  st.frame = (st.frame + 1) % NF; draw();
  timer = setTimeout(tick, Math.max(0, 1000 / st.fps - st.lastDraw));
}
function step(d) { setPlay(false); st.frame = Math.max(0, Math.min(NF - 1, st.frame + d)); draw(); }
/* controls */
function el(id) { return document.getElementById(id); }
el("scrub").max = NF - 1;
el("play").onclick = function () { setPlay(!st.playing); };
el("back").onclick = function () { step(-1); };
el("fwd").onclick = function () { step(1); };
el("scrub").oninput = function () { setPlay(false); st.frame = +this.value; draw(); };
el("speed").oninput = function () { st.fps = +this.value; el("speedv").textContent = st.fps + " frames/s"; };
el("style").onchange = function () { st.style = this.value; draw(); };
el("colour").onchange = function () { st.colour = this.value; draw(); };
el("clip").onchange = function () { st.clip = this.value; draw(); };
el("cut").oninput = function () { st.cut = +this.value; draw(); };
el("network").onchange = function () { st.network = NET ? this.value : ""; draw(); };
el("png").onclick = function () { savePNG(); };
if (!NET) { el("network").disabled = true; el("network").parentNode.title = "the run wrote no contacts (contacts_every)"; }
el("stereo").onchange = function () { st.stereo = this.value; draw(); };
el("eye").oninput = function () { st.eye = this.value / 100; draw(); };
el("fov").oninput = function () { var d0 = cam.dist * Math.tan(cam.fov / 2); cam.fov = this.value * Math.PI / 180; cam.dist = d0 / Math.tan(cam.fov / 2); el("fovv").textContent = this.value + "\u00b0"; draw(); };
el("reset").onclick = function () { reset(); draw(); };
el("fit").onclick = function () { fitGrains(); draw(); };
el("renderer").onchange = function () { setRenderer(this.value); };
var drag = null;
function bindMouse(c) {
  c.addEventListener("mousedown", function (e) { drag = { x: e.clientX, y: e.clientY, shift: e.shiftKey }; c.style.cursor = "grabbing"; });
}
bindMouse(cpuCanvas);
window.addEventListener("mouseup", function () { drag = null; canvas.style.cursor = "grab"; });
window.addEventListener("mousemove", function (e) {
  if (!drag) return;
  var dx = e.clientX - drag.x, dy = e.clientY - drag.y; drag.x = e.clientX; drag.y = e.clientY;
  if (drag.shift) {
    var B = basis(), s = cam.dist * Math.tan(cam.fov / 2) * 2 / canvas.height;
    for (var i = 0; i < 3; i++) cam.target[i] += s * (-dx * B.r[i] + dy * B.u[i]);
  } else {
    cam.yaw -= dx * 0.008; cam.pitch = Math.max(-Math.PI / 2, Math.min(Math.PI / 2, cam.pitch + dy * 0.008));
  }
  draw();
});
window.addEventListener("keydown", function (e) {
  if (e.key === " ") { e.preventDefault(); setPlay(!st.playing); }
  else if (e.key === "ArrowLeft") step(-1);
  else if (e.key === "ArrowRight") step(1);
});
window.addEventListener("resize", function () { resize(); draw(); });
window.addEventListener("wheel", function (e) {   /* zoom: the eye nearer or farther */
  if (e.target !== canvas) return;
  e.preventDefault(); cam.dist = Math.max(1e-6 * size, cam.dist * Math.exp(0.0015 * Math.max(-200, Math.min(200, e.deltaY)))); draw();
}, { passive: false });
/* settings from the address (docs/cli.md, "pala view"): #frame=K|last&colour=FIELD&style=wire&
   stereo=anaglyph&eye=0..100&yaw=DEG&pitch=DEG&fov=DEG&clip=x|y|z|-x|-y|-z&cut=0..100&network=1&
   renderer=webgl&png=1&play=1&bench=N */
reset();
var H = {};
location.hash.replace(/^#/, "").split("&").forEach(function (kv) { var a = kv.split("="); if (a[0]) H[a[0]] = decodeURIComponent(a[1] || ""); });
if (H.frame !== undefined) st.frame = Math.max(0, Math.min(NF - 1, H.frame === "last" ? NF - 1 : +H.frame || 0));
if (H.stereo) { st.stereo = H.stereo; el("stereo").value = H.stereo; }
if (H.style) { st.style = H.style; el("style").value = H.style; }
if (H.colour) { st.colour = FIELDS[H.colour] ? H.colour : "type"; el("colour").value = st.colour; }
if (H.clip && /^-?[xyz]$/.test(H.clip)) { st.clip = H.clip; el("clip").value = H.clip; }
if (H.cut !== undefined && isFinite(+H.cut)) { st.cut = Math.max(0, Math.min(100, +H.cut)); el("cut").value = st.cut; }
if ((H.network === "1" || H.network === "alone") && NET) { st.network = H.network; el("network").value = H.network; }
if (H.frameon === "grains") fitGrains();
if (H.fov && +H.fov >= 5 && +H.fov <= 100) { var d0 = cam.dist * Math.tan(cam.fov / 2); cam.fov = H.fov * Math.PI / 180; cam.dist = d0 / Math.tan(cam.fov / 2); el("fov").value = H.fov; }
if (H.yaw) cam.yaw = H.yaw * Math.PI / 180;
if (H.pitch) cam.pitch = H.pitch * Math.PI / 180;
if (H.eye) { st.eye = H.eye / 100; el("eye").value = H.eye; }
if (H.renderer === "webgl" || H.gl === "1") setRenderer("webgl");
el("speedv").textContent = st.fps + " frames/s"; el("fovv").textContent = el("fov").value + "\u00b0";
resize();
draw();
/* #bench=N: N frames drawn in a row, the mean time per frame reported */
var report = { frames: NF, grains: NG, spheres: ncomp, dim: D.dim, stereo: st.stereo, style: st.style, renderer: st.renderer,
               colour: st.colour, legend: st.legend, clip: st.clip, drawn_grains: st.drawn, network: st.network, network_lines: st.lines,
               contacts: NET ? (D.chave[st.frame] ? D.noff[st.frame + 1] - D.noff[st.frame] : -1) : null, step: D.step[st.frame] };
if (H.png === "1") report.png_bytes = Math.round(savePNG().length * 3 / 4);
if (H.bench) {
  var n = +H.bench, tsum = 0, jsum = 0, f0 = st.frame;
  var px1 = new Uint8Array(4);
  for (var i = 0; i < n; i++) {   /* with the GPU's work: a pixel read back waits for it */
    var t0 = performance.now(); st.frame = (f0 + i) % NF; draw(); var t1 = performance.now();
    if (st.renderer === "webgl" && gl) gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px1);
    else ctx.getImageData(0, 0, 1, 1);   /* the image on the canvas */
    tsum += performance.now() - t0; jsum += t1 - t0;
  }
  report.ms_script_per_frame = jsum / n;
  st.frame = f0; draw();
  report.bench_frames = n; report.ms_per_frame = tsum / n;
}
report.errors = errors;
document.body.setAttribute("data-pala", JSON.stringify(report));
console.log("pala view ready: " + JSON.stringify(report));
if (H.play === "1") setPlay(true);
})();
