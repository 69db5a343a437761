// The table's pictures: every card, bot, die, tile and token is drawn here, in code, as inline
// SVG (createElementNS only: nothing is fetched and no markup is parsed, so the page's strict
// CSP holds and a card name strangers wrote can never become markup). One style for all five
// games: flat shapes, a warm dark outline, a soft ground shadow; each game has its own palette.
//
// A robot is composed from parts (antenna, head, eyes, mouth, body, arms, legs) chosen
// deterministically from a seed string (a card's name, with its type or stats), so the same card
// is the same robot on every screen and every visit. All the art is original.

import { showDetail } from "./ui.js";

const NS = "http://www.w3.org/2000/svg";
const INK = "#2d2520";

// An SVG element: s("circle", {cx: 5, cy: 5, r: 3}, ...children).
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined && v !== false) el.setAttribute(k, String(v));
  for (const c of children.flat()) if (c) el.appendChild(c);
  return el;
}

// A small stable hash (FNV-1a) of a string: the seed for every choice a picture makes.
export function hash(text) {
  let x = 0x811c9dc5;
  for (const ch of String(text)) {
    x ^= ch.codePointAt(0);
    x = Math.imul(x, 0x01000193) >>> 0;
  }
  return x >>> 0;
}

// A sequence of small choices drawn from one seed.
function chooser(seed) {
  let x = hash(seed) || 1;
  return (n) => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x % n;
  };
}

// Each game's palette: the art panel's backdrop, the robots' metals and accents, its glow.
export const PALETTES = {
  stakbots: { back: ["#fbe3c4", "#d9ecef", "#f6d6cf", "#e4e9c9"], metal: ["#5b8fb9", "#e07a5f", "#81b29a", "#f2cc8f", "#9a8fc4", "#c9ada7"], accent: ["#f4a259", "#3d5a80", "#ee6c4d"], glow: "#fff3b0", deco: "stripes" },
  breadwinner: { back: ["#f7e7b4", "#e6f0c8", "#fde4c0"], metal: ["#c8553d", "#e9a23b", "#588b8b", "#8c6a4a", "#93a85b"], accent: ["#f28f3b", "#ffd5a1", "#4f772d"], glow: "#fff7d6", deco: "sun" },
  iotabots: { back: ["#e5dcff", "#d3ecff", "#f1dcf6"], metal: ["#6d5bd0", "#3fa7d6", "#b05fcf", "#5c6b8a", "#e26d9b"], accent: ["#59e0c5", "#ffd166", "#ff6b9a"], glow: "#b8fff1", deco: "circuit" },
  betabotz: { back: ["#dbe8f5", "#e9f3e1", "#f5ecd7"], metal: ["#3b6ea5", "#2a9d8f", "#c9a227", "#7a8896", "#d1603d"], accent: ["#e9c46a", "#2a9d8f", "#f4a261"], glow: "#d6fff6", deco: "grid" },
  rumblebots: { back: ["#f5dcc6", "#e8e0d0", "#f2d3c4", "#dfe5d3"], metal: ["#b5523b", "#d98e32", "#6b7f5e", "#8a6f5a", "#4f6d7a", "#c44536"], accent: ["#f6bd60", "#84a59d", "#f28482"], glow: "#ffe8a8", deco: "gear" },
};

let uid = 0;

// The backdrop spans x -15 to 115: a card's picture is wider than tall (the robot stands in
// the middle 100 x 100).
function backdrop(pal, pick, w = 115, h = 100) {
  const bg = pal.back[pick(pal.back.length)];
  const g = s("g", { class: "art-backdrop" }, s("rect", { x: -15, y: 0, width: w + 15, height: h, fill: bg }));
  const soft = "rgba(255,255,255,0.45)";
  if (pal.deco === "stripes") {
    for (let i = -115; i < w; i += 18) g.appendChild(s("path", { d: `M${i} ${h} L${i + h} 0`, stroke: soft, "stroke-width": 7 }));
  } else if (pal.deco === "sun") {
    g.appendChild(s("circle", { cx: 78, cy: 22, r: 13, fill: "#ffd166", opacity: 0.75 }));
    g.appendChild(s("path", { d: `M-15 ${h * 0.78} Q${w * 0.3} ${h * 0.62} ${w * 0.6} ${h * 0.76} T${w} ${h * 0.72} V${h} H-15 Z`, fill: "#a7c957", opacity: 0.55 }));
  } else if (pal.deco === "circuit") {
    const c = "rgba(255,255,255,0.6)";
    g.appendChild(s("path", { d: "M6 20 H26 L34 28 H44 M94 70 H76 L68 62 H58 M10 80 H22 L28 74", stroke: c, "stroke-width": 2.5, fill: "none" }));
    for (const [x, y] of [[44, 28], [58, 62], [28, 74], [6, 20], [94, 70]]) g.appendChild(s("circle", { cx: x, cy: y, r: 2.8, fill: c }));
  } else if (pal.deco === "grid") {
    for (let i = -6; i < w; i += 16) g.appendChild(s("path", { d: `M${i} 0 V${h} M-15 ${i} H${w}`, stroke: soft, "stroke-width": 1.5 }));
  } else if (pal.deco === "gear") {
    g.appendChild(gearShape(82, 20, 14, 9, soft));
    g.appendChild(gearShape(14, 78, 10, 8, soft));
  }
  return g;
}

function gearShape(cx, cy, r, teeth, fill, stroke = null) {
  const pts = [];
  for (let i = 0; i < teeth * 2; i++) {
    const a = (Math.PI * i) / teeth;
    const rr = i % 2 ? r * 0.78 : r;
    const a1 = a - Math.PI / teeth / 2.2;
    const a2 = a + Math.PI / teeth / 2.2;
    pts.push(`${(cx + rr * Math.cos(a1)).toFixed(1)},${(cy + rr * Math.sin(a1)).toFixed(1)}`);
    pts.push(`${(cx + rr * Math.cos(a2)).toFixed(1)},${(cy + rr * Math.sin(a2)).toFixed(1)}`);
  }
  return s("g", {}, s("polygon", { points: pts.join(" "), fill, stroke, "stroke-width": stroke ? 2 : null, "stroke-linejoin": "round" }),
    s("circle", { cx, cy, r: r * 0.32, fill: stroke ? "#fff8" : "none", stroke: stroke || null, "stroke-width": stroke ? 2 : null }));
}

const line = { stroke: INK, "stroke-width": 2.6, "stroke-linejoin": "round", "stroke-linecap": "round" };

// -- robot parts (viewBox 0 0 100 100, ground at y 94) --------------------------------------------
function legs(kind, metal, dark) {
  switch (kind) {
    case 0: // treads
      return s("g", {}, s("rect", { x: 22, y: 78, width: 56, height: 15, rx: 7.5, fill: dark, ...line }),
        [31, 43, 57, 69].map((x) => s("circle", { cx: x, cy: 85.5, r: 4, fill: metal, ...line, "stroke-width": 2 })));
    case 1: // two legs with feet
      return s("g", {}, s("rect", { x: 36, y: 72, width: 8, height: 16, fill: dark, ...line }), s("rect", { x: 56, y: 72, width: 8, height: 16, fill: dark, ...line }),
        s("path", { d: "M30 93 Q30 86 40 86 Q47 86 47 93 Z", fill: metal, ...line }), s("path", { d: "M53 93 Q53 86 60 86 Q70 86 70 93 Z", fill: metal, ...line }));
    case 2: // one big wheel
      return s("g", {}, s("rect", { x: 45, y: 72, width: 10, height: 10, fill: dark, ...line }),
        s("circle", { cx: 50, cy: 84, r: 9.5, fill: dark, ...line }), s("circle", { cx: 50, cy: 84, r: 3.5, fill: metal, ...line, "stroke-width": 2 }));
    default: // hover jets
      return s("g", {}, s("path", { d: "M34 74 L66 74 L60 84 L40 84 Z", fill: dark, ...line }),
        s("path", { d: "M42 86 L50 95 L58 86 Z", fill: "#ffb347", stroke: "#f07f2b", "stroke-width": 2, "stroke-linejoin": "round" }));
  }
}

function body(kind, metal, accent, lights) {
  const shapes = [
    () => s("rect", { x: 27, y: 46, width: 46, height: 32, rx: 7, fill: metal, ...line }),
    () => s("ellipse", { cx: 50, cy: 62, rx: 25, ry: 17, fill: metal, ...line }),
    () => s("path", { d: "M25 46 L75 46 L67 78 L33 78 Z", fill: metal, ...line }),
    () => s("rect", { x: 29, y: 45, width: 42, height: 34, rx: 16, fill: metal, ...line }),
  ];
  const g = s("g", {}, shapes[kind]());
  g.appendChild(s("rect", { x: 39, y: 53, width: 22, height: 15, rx: 3, fill: "#fffaf0", ...line, "stroke-width": 2 }));
  for (let i = 0; i < lights; i++) g.appendChild(s("circle", { cx: 44 + i * 6, cy: 60.5, r: 2.3, fill: accent, stroke: INK, "stroke-width": 1.2 }));
  g.appendChild(s("path", { d: "M33 50 Q36 48 40 48", stroke: "#fff", "stroke-opacity": 0.6, "stroke-width": 2.4, fill: "none", "stroke-linecap": "round" }));
  return g;
}

function arms(kind, metal, dark) {
  switch (kind) {
    case 0: // bendy arms with round hands
      return s("g", {}, s("path", { d: "M28 54 Q16 56 15 68", fill: "none", ...line, stroke: INK, "stroke-width": 7 }), s("path", { d: "M28 54 Q16 56 15 68", fill: "none", stroke: metal, "stroke-width": 3.4, "stroke-linecap": "round" }),
        s("path", { d: "M72 54 Q84 56 85 68", fill: "none", stroke: INK, "stroke-width": 7, "stroke-linecap": "round" }), s("path", { d: "M72 54 Q84 56 85 68", fill: "none", stroke: metal, "stroke-width": 3.4, "stroke-linecap": "round" }),
        s("circle", { cx: 15, cy: 70, r: 4.5, fill: dark, ...line, "stroke-width": 2 }), s("circle", { cx: 85, cy: 70, r: 4.5, fill: dark, ...line, "stroke-width": 2 }));
    case 1: // claws
      return s("g", {}, s("rect", { x: 14, y: 50, width: 14, height: 7, rx: 3, fill: dark, ...line }), s("rect", { x: 72, y: 50, width: 14, height: 7, rx: 3, fill: dark, ...line }),
        s("path", { d: "M17 57 Q9 62 13 70 M17 57 Q20 64 16 70", fill: "none", ...line }), s("path", { d: "M83 57 Q91 62 87 70 M83 57 Q80 64 84 70", fill: "none", ...line }));
    case 2: // pistons raised
      return s("g", {}, s("rect", { x: 15, y: 36, width: 8, height: 22, rx: 3, fill: dark, ...line }), s("rect", { x: 77, y: 36, width: 8, height: 22, rx: 3, fill: dark, ...line }),
        s("path", { d: "M23 55 H28 M72 55 H77", ...line }), s("circle", { cx: 19, cy: 34, r: 5, fill: metal, ...line }), s("circle", { cx: 81, cy: 34, r: 5, fill: metal, ...line }));
    default: // a tool arm and a short stub
      return s("g", {}, s("path", { d: "M72 55 L86 48", ...line, "stroke-width": 6 }), s("path", { d: "M72 55 L86 48", stroke: metal, "stroke-width": 2.6, "stroke-linecap": "round" }),
        s("rect", { x: 82, y: 38, width: 8, height: 16, rx: 2, fill: dark, ...line, transform: "rotate(-25 86 46)" }),
        s("rect", { x: 18, y: 52, width: 10, height: 8, rx: 3, fill: dark, ...line }));
  }
}

function head(kind, metal) {
  switch (kind) {
    case 0: return s("rect", { x: 31, y: 17, width: 38, height: 27, rx: 7, fill: metal, ...line });
    case 1: return s("path", { d: "M29 44 L29 33 A21 19 0 0 1 71 33 L71 44 Z", fill: metal, ...line });
    case 2: return s("path", { d: "M35 17 L65 17 L72 44 L28 44 Z", fill: metal, ...line });
    case 3: return s("circle", { cx: 50, cy: 31, r: 15, fill: metal, ...line });
    default: return s("g", {}, s("rect", { x: 25, y: 18, width: 50, height: 27, rx: 5, fill: metal, ...line }), s("rect", { x: 30, y: 22, width: 40, height: 19, rx: 4, fill: "#233142", ...line, "stroke-width": 2 }));
  }
}

function eyes(kind, glow, screen) {
  const white = screen ? glow : "#fffaf0";
  switch (kind) {
    case 0: return s("g", {}, s("circle", { cx: 42, cy: 30, r: 5, fill: white, ...line, "stroke-width": 2 }), s("circle", { cx: 58, cy: 30, r: 5, fill: white, ...line, "stroke-width": 2 }),
      s("circle", { cx: 43, cy: 31, r: 2.2, fill: INK }), s("circle", { cx: 59, cy: 31, r: 2.2, fill: INK }));
    case 1: return s("g", {}, s("rect", { x: 36, y: 26, width: 28, height: 8, rx: 4, fill: glow, ...line, "stroke-width": 2 }), s("rect", { x: 40, y: 28, width: 8, height: 3, rx: 1.5, fill: "#fff" }));
    case 2: return s("g", {}, s("circle", { cx: 50, cy: 30, r: 7.5, fill: white, ...line, "stroke-width": 2 }), s("circle", { cx: 50, cy: 30, r: 3.6, fill: INK }), s("circle", { cx: 51.5, cy: 28.5, r: 1.3, fill: "#fff" }));
    case 3: return s("g", {}, s("rect", { x: 37, y: 26, width: 9, height: 9, rx: 2, fill: glow, ...line, "stroke-width": 2 }), s("rect", { x: 54, y: 26, width: 9, height: 9, rx: 2, fill: glow, ...line, "stroke-width": 2 }));
    default: return s("g", {}, s("circle", { cx: 42, cy: 31, r: 4.5, fill: white, ...line, "stroke-width": 2 }), s("circle", { cx: 58, cy: 31, r: 4.5, fill: white, ...line, "stroke-width": 2 }),
      s("circle", { cx: 42, cy: 32, r: 2, fill: INK }), s("circle", { cx: 58, cy: 32, r: 2, fill: INK }), s("path", { d: "M36 24 L46 27 M64 24 L54 27", ...line }));
  }
}

function mouth(kind, screen) {
  const c = screen ? "#b8fff1" : INK;
  if (kind === 0) return s("path", { d: "M44 39 Q50 43 56 39", fill: "none", stroke: c, "stroke-width": 2.2, "stroke-linecap": "round" });
  if (kind === 1) return s("g", {}, [45, 50, 55].map((x) => s("path", { d: `M${x} 37.5 V41`, stroke: c, "stroke-width": 2, "stroke-linecap": "round" })));
  return null;
}

function antenna(kind, accent) {
  switch (kind) {
    case 0: return s("g", {}, s("path", { d: "M50 17 V7", ...line }), s("circle", { cx: 50, cy: 6, r: 3.6, fill: accent, ...line, "stroke-width": 2 }));
    case 1: return s("g", {}, s("path", { d: "M42 18 L36 8 M58 18 L64 8", ...line }), s("circle", { cx: 36, cy: 7, r: 3, fill: accent, ...line, "stroke-width": 2 }), s("circle", { cx: 64, cy: 7, r: 3, fill: accent, ...line, "stroke-width": 2 }));
    case 2: return s("path", { d: "M50 17 L46 11 L53 9 L48 2", fill: "none", ...line, stroke: accent === "#3d5a80" ? "#f4a259" : accent, "stroke-width": 3 });
    case 3: return s("g", {}, s("path", { d: "M56 18 L60 11", ...line }), s("path", { d: "M52 10 A9 6 -30 0 0 68 6 Z", fill: accent, ...line, "stroke-width": 2 }));
    default: return null;
  }
}

// A robot from a seed: `might` (0 to 10, a card's power or attack) lights its chest and stands
// it taller; `extra` adds a game's own flourish (a leaf, a shield, a wing, a helmet...).
export function robotParts(seed, palette, might = 1, extra = null) {
  const pick = chooser(seed);
  const metal = palette.metal[pick(palette.metal.length)];
  let other = palette.metal[pick(palette.metal.length)];
  if (other === metal) other = palette.metal[(palette.metal.indexOf(metal) + 1) % palette.metal.length];
  const accent = palette.accent[pick(palette.accent.length)];
  const dark = shade(other, -0.25);
  const headKind = pick(5);
  const parts = {
    legs: pick(4), body: pick(4), arms: pick(4), head: headKind, eyes: pick(5), mouth: pick(3), antenna: pick(5),
  };
  const lights = Math.max(1, Math.min(3, Math.ceil((Number(might) || 0) / 3)));
  const g = s("g", { class: "robot" },
    s("ellipse", { cx: 50, cy: 94, rx: 30, ry: 4, fill: "rgba(45,37,32,0.22)" }),
    legs(parts.legs, metal, dark),
    arms(parts.arms, metal, dark),
    body(parts.body, metal, accent, lights),
    s("rect", { x: 45, y: 41, width: 10, height: 7, fill: dark, ...line, "stroke-width": 2 }),
    antenna(parts.antenna, accent),
    head(parts.head, other),
    eyes(parts.eyes, palette.glow, parts.head === 4),
    mouth(parts.mouth, parts.head === 4));
  if (extra) g.appendChild(extra);
  return { g, parts, metal, accent, backPick: pick };
}

function shade(hex, amount) {
  const n = parseInt(hex.slice(1), 16);
  const f = (c) => Math.max(0, Math.min(255, Math.round(c + (amount < 0 ? c : 255 - c) * amount)));
  const r = f(n >> 16), gg = f((n >> 8) & 255), b = f(n & 255);
  return `#${((r << 16) | (gg << 8) | b).toString(16).padStart(6, "0")}`;
}

function frame(viewBox, label, ...children) {
  const svg = s("svg", { viewBox, class: "art", "aria-hidden": "true", focusable: "false", role: "img", preserveAspectRatio: "xMidYMid meet" }, ...children);
  if (label) svg.dataset.art = label;
  return svg;
}

// The picture on a card: a robot on the game's backdrop.
export function robotArt(game, seed, opts = {}) {
  const pal = PALETTES[game] || PALETTES.stakbots;
  const pick = chooser(`${seed}/back`);
  const { g } = robotParts(seed, pal, opts.might, opts.extra ? opts.extra(pal) : null);
  return frame("-11 1 122 94", "robot", backdrop(pal, pick), g);
}

// A card back: the game's stripes and a gear, no words.
export function cardBack(game) {
  const pal = PALETTES[game] || PALETTES.stakbots;
  const id = `cb${++uid}`;
  const base = { stakbots: "#3d5a80", breadwinner: "#8c5a2b", iotabots: "#4b3a8c", betabotz: "#1f4e5f", rumblebots: "#7a3324" }[game] || "#3d5a80";
  const svg = frame("0 0 60 80", "back",
    s("defs", {}, s("pattern", { id, width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      s("rect", { width: 8, height: 8, fill: base }), s("rect", { width: 4, height: 8, fill: shade(base, 0.12) }))),
    s("rect", { x: 0, y: 0, width: 60, height: 80, rx: 6, fill: `url(#${id})` }),
    s("rect", { x: 5, y: 5, width: 50, height: 70, rx: 5, fill: "none", stroke: pal.accent[0], "stroke-width": 1.6, opacity: 0.85 }),
    gearShape(30, 40, 13, 8, pal.accent[0], INK),
    s("circle", { cx: 27, cy: 38, r: 1.6, fill: INK }), s("circle", { cx: 33, cy: 38, r: 1.6, fill: INK }));
  svg.setAttribute("preserveAspectRatio", "xMidYMid slice");
  return svg;
}

// -- small pictures: tokens, icons ---------------------------------------------------------------
export function icon(kind, opts = {}) {
  const v = "0 0 24 24";
  const ln = { stroke: INK, "stroke-width": 1.6, "stroke-linejoin": "round", "stroke-linecap": "round" };
  const pics = {
    mana: () => [s("path", { d: "M12 2 L20 9 L12 22 L4 9 Z", fill: "#7fb7ff", ...ln }), s("path", { d: "M4 9 H20 M12 2 L9 9 L12 22 L15 9 Z", fill: "none", ...ln, "stroke-width": 1 }), s("path", { d: "M8 5 L10 4", stroke: "#fff", "stroke-width": 1.5 })],
    life: () => [s("path", { d: "M12 21 C4 15 2 11 2 8 A5 5 0 0 1 12 6 A5 5 0 0 1 22 8 C22 11 20 15 12 21 Z", fill: "#ee6c4d", ...ln }), s("path", { d: "M6 8 A2.5 2.5 0 0 1 9 6", stroke: "#fff", "stroke-width": 1.5, fill: "none" })],
    bitz: () => [s("circle", { cx: 12, cy: 12, r: 9.5, fill: "#e9c46a", ...ln }), s("circle", { cx: 12, cy: 12, r: 6, fill: "none", stroke: "#b8860b", "stroke-width": 1.4 }), s("path", { d: "M10 8 V16 M10 8 H13 A2 2 0 0 1 13 12 H10 M10 12 H13.5 A2 2 0 0 1 13.5 16 H10", fill: "none", ...ln, "stroke-width": 1.3 })],
    crystal: () => [s("path", { d: "M8 3 H16 L20 9 L12 21 L4 9 Z", fill: "#84dcc6", ...ln }), s("path", { d: "M4 9 H20 M8 3 L10 9 L12 21 L14 9 L16 3", fill: "none", ...ln, "stroke-width": 1 })],
    scrap: () => [gearShape(12, 12, 9, 7, "#c9a66b", INK), s("circle", { cx: 12, cy: 12, r: 2.5, fill: INK })],
    loaf: () => [s("path", { d: "M3 15 C3 8 21 8 21 15 V18 H3 Z", fill: "#d9a05b", ...ln }), s("path", { d: "M8 10 L10 14 M12 9.5 L14 13.5 M16 10.5 L17.5 13.5", fill: "none", ...ln, "stroke-width": 1.2 })],
    factory: () => [s("path", { d: "M2 21 V11 L8 14 V11 L14 14 V6 H19 V21 Z", fill: "#c8553d", ...ln }), s("rect", { x: 5, y: 16, width: 3, height: 3, fill: "#ffd166" }), s("rect", { x: 11, y: 16, width: 3, height: 3, fill: "#ffd166" }), s("path", { d: "M16.5 6 V3", ...ln }), s("circle", { cx: 17, cy: 2.5, r: 1.5, fill: "#ddd", stroke: "none" })],
    poison: () => [s("path", { d: "M12 2 C12 2 5 11 5 15 A7 7 0 0 0 19 15 C19 11 12 2 12 2 Z", fill: "#8e5fa8", ...ln }), s("circle", { cx: 10, cy: 14, r: 1.6, fill: "#e8d5f2" }), s("circle", { cx: 14, cy: 17, r: 1.2, fill: "#e8d5f2" })],
    crop: () => [s("circle", { cx: 12, cy: 12, r: 10, fill: "#f5e6a8", ...ln }), wheat(12, 12, 0.55)],
    code: () => [s("rect", { x: 3, y: 4, width: 18, height: 16, rx: 2, fill: "#233142", ...ln }), s("path", { d: "M9 9 L6 12 L9 15 M15 9 L18 12 L15 15 M13 8 L11 16", fill: "none", stroke: "#59e0c5", "stroke-width": 1.6, "stroke-linecap": "round", "stroke-linejoin": "round" })],
    breach: () => [s("path", { d: "M12 2 L22 20 H2 Z", fill: "#f4a261", ...ln }), s("path", { d: "M12 8 L10.5 12 L13.5 13 L12 17", fill: "none", ...ln })],
    mission: () => [s("path", { d: "M5 21 V3", ...ln }), s("path", { d: "M5 4 H18 L15 8 L18 12 H5 Z", fill: "#2a9d8f", ...ln })],
    champion: () => [s("path", { d: "M4 18 L3 7 L8 11 L12 4 L16 11 L21 7 L20 18 Z", fill: "#ffd166", ...ln }), s("rect", { x: 4, y: 18, width: 16, height: 3, rx: 1, fill: "#e9a23b", ...ln })],
    deck: () => [s("rect", { x: 6, y: 3, width: 13, height: 17, rx: 2, fill: "#9a8fc4", ...ln }), s("rect", { x: 4, y: 5, width: 13, height: 17, rx: 2, fill: "#6d5bd0", ...ln })],
    hand: () => [s("rect", { x: 3, y: 6, width: 10, height: 14, rx: 2, fill: "#f2cc8f", ...ln, transform: "rotate(-12 8 13)" }), s("rect", { x: 11, y: 5, width: 10, height: 14, rx: 2, fill: "#fbe3c4", ...ln, transform: "rotate(10 16 12)" })],
    scrapheap: () => [s("path", { d: "M2 20 L7 12 L10 15 L14 8 L22 20 Z", fill: "#a89f91", ...ln }), gearShape(14, 14, 3.2, 6, "#6b7f5e", INK)],
  };
  const make = pics[kind] || pics.scrap;
  const svg = frame(v, kind, make());
  svg.classList.add("icon");
  if (opts.size) svg.style.width = svg.style.height = `${opts.size}px`;
  return svg;
}

function wheat(cx, cy, k) {
  const g = s("g", { transform: `translate(${cx} ${cy}) scale(${k})` });
  g.appendChild(s("path", { d: "M0 14 V-12", stroke: "#8c6a4a", "stroke-width": 2.2, "stroke-linecap": "round" }));
  for (let i = 0; i < 4; i++) {
    const y = -10 + i * 5;
    g.appendChild(s("ellipse", { cx: -3.5, cy: y, rx: 2.6, ry: 4.2, fill: "#e9a23b", stroke: INK, "stroke-width": 1.1, transform: `rotate(-30 -3.5 ${y})` }));
    g.appendChild(s("ellipse", { cx: 3.5, cy: y, rx: 2.6, ry: 4.2, fill: "#e9a23b", stroke: INK, "stroke-width": 1.1, transform: `rotate(30 3.5 ${y})` }));
  }
  g.appendChild(s("ellipse", { cx: 0, cy: -14, rx: 2.4, ry: 4, fill: "#e9a23b", stroke: INK, "stroke-width": 1.1 }));
  return g;
}

// -- Bread Winner --------------------------------------------------------------------------------
const SEAT_COLOURS = ["#3d5a80", "#c0392b", "#2a9d8f", "#8e44ad", "#d68910", "#566573"];

// A farm bot's tool, by its type: the one part that tells a Harvester from a Soldier.
function farmTool(type) {
  const t = String(type).toLowerCase();
  const ln = { stroke: INK, "stroke-width": 2.4, "stroke-linejoin": "round", "stroke-linecap": "round" };
  if (t.startsWith("drone")) return s("g", {}, s("path", { d: "M50 17 V9", ...ln }), s("ellipse", { cx: 50, cy: 8, rx: 20, ry: 3.5, fill: "#ddd", ...ln, "stroke-width": 2 }));
  if (t.startsWith("harvest")) return s("g", {}, s("path", { d: "M74 58 L90 58 L94 72 L80 72 Z", fill: "#f2cc8f", ...ln }), wheat(86, 52, 0.5));
  if (t.startsWith("locust")) return s("g", {}, s("path", { d: "M30 50 Q8 34 12 60 Z", fill: "#b8e0a8", ...ln, opacity: 0.95 }), s("path", { d: "M70 50 Q92 34 88 60 Z", fill: "#b8e0a8", ...ln, opacity: 0.95 }));
  if (t.startsWith("soldier")) return s("g", {}, s("rect", { x: 72, y: 48, width: 22, height: 7, rx: 2, fill: "#5c6b8a", ...ln }), s("path", { d: "M33 19 Q50 6 67 19 Z", fill: "#6b7f5e", ...ln }));
  if (t.startsWith("shield")) return s("path", { d: "M78 44 L94 48 Q94 66 86 74 Q78 66 78 48 Z", fill: "#7fb7ff", ...ln });
  if (t.startsWith("r&d") || t.startsWith("r")) return s("g", {}, s("path", { d: "M82 42 V50 L76 64 Q75 68 80 68 H90 Q94 68 92 64 L86 50 V42 Z", fill: "#d5f5e3", ...ln }), s("path", { d: "M78 60 H90", stroke: "#59e0c5", "stroke-width": 3 }));
  return null;
}

// A Bread Winner bot: a die in its owner's colour, the bot's picture on it and its face in pips.
export function dieArt(bot) {
  const owner = SEAT_COLOURS[bot.owner] || SEAT_COLOURS[0];
  const pal = { ...PALETTES.breadwinner, metal: [shade(owner, 0.35), shade(owner, 0.5)] };
  const { g } = robotParts(`${bot.type}`, pal, bot.face, farmTool(bot.type));
  g.setAttribute("transform", "translate(16 13) scale(0.8)");
  const pips = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] }[bot.face] || [];
  const pipGroup = s("g", {}, s("rect", { x: 3, y: 3, width: 22, height: 22, rx: 5, fill: "#fffaf0", stroke: INK, "stroke-width": 1.6 }),
    pips.map(([x, y]) => s("circle", { cx: 14 + x * 6, cy: 14 + y * 6, r: 2.3, fill: INK })));
  return frame("0 0 100 100", "die",
    s("rect", { x: 2, y: 2, width: 96, height: 96, rx: 16, fill: owner, stroke: INK, "stroke-width": 3 }),
    s("rect", { x: 8, y: 8, width: 84, height: 84, rx: 12, fill: "#fffaf0" }),
    g, pipGroup);
}

// A plain die's face (1 to 6 pips): a rolled die, and the faces it shows while it tumbles.
const PIPS = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] };

export function pipFace(face, colour = "#fffaf0") {
  const svg = frame("0 0 40 40", "die-face",
    s("rect", { x: 2, y: 2, width: 36, height: 36, rx: 8, fill: colour, stroke: INK, "stroke-width": 2.4 }),
    (PIPS[face] || []).map(([x, y]) => s("circle", { class: "pip", cx: 20 + x * 10, cy: 20 + y * 10, r: 3.6, fill: INK })));
  svg.dataset.face = String(face);
  return svg;
}

// A Bread Winner tile's ground: furrowed Land, a Delivery bakery in its owner's colour, poison.
export function tileArt(tile) {
  const poisoned = tile.poisoned;
  const g = [];
  if (tile.kind === "delivery") {
    const owner = SEAT_COLOURS[tile.owner] || "#8c6a4a";
    g.push(s("rect", { x: 0, y: 0, width: 200, height: 120, fill: "#ecd3a0" }));
    g.push(s("path", { d: "M0 96 H200 V120 H0 Z", fill: "#c9a66b" }));
    g.push(s("path", { d: "M120 96 V56 L148 38 L176 56 V96 Z", fill: "#fbe3c4", stroke: INK, "stroke-width": 2.4, "stroke-linejoin": "round" }));
    g.push(s("path", { d: "M114 58 L148 34 L182 58", fill: "none", stroke: owner, "stroke-width": 7, "stroke-linecap": "round", "stroke-linejoin": "round" }));
    g.push(s("rect", { x: 140, y: 72, width: 16, height: 24, rx: 2, fill: owner, stroke: INK, "stroke-width": 2 }));
    g.push(s("path", { d: "M126 66 C126 60 140 60 140 66 V70 H126 Z", fill: "#d9a05b", stroke: INK, "stroke-width": 1.6 }));
    g.push(s("path", { d: "M160 66 C160 60 174 60 174 66 V70 H160 Z", fill: "#d9a05b", stroke: INK, "stroke-width": 1.6 }));
  } else {
    g.push(s("rect", { x: 0, y: 0, width: 200, height: 120, fill: poisoned ? "#b3a6b8" : "#b5d38a" }));
    for (let i = 0; i < 6; i++) {
      g.push(s("path", { d: `M-10 ${40 + i * 16} Q100 ${30 + i * 16} 210 ${44 + i * 16}`, fill: "none", stroke: poisoned ? "#8e7a96" : "#8fb464", "stroke-width": 6, "stroke-linecap": "round" }));
    }
    const pick = chooser(tile.id);
    for (let i = 0; i < 4; i++) {
      const x = 20 + pick(170);
      const y = 40 + pick(70);
      g.push(s("path", { d: `M${x} ${y} q3 -8 6 0 M${x + 3} ${y} v-9`, fill: "none", stroke: poisoned ? "#6d5a72" : "#4f772d", "stroke-width": 2, "stroke-linecap": "round" }));
    }
    if (poisoned) {
      for (const [x, y] of [[150, 30], [176, 58], [34, 92]]) g.push(s("path", { d: `M${x} ${y - 10} C${x} ${y - 10} ${x - 7} ${y} ${x - 7} ${y + 4} A7 7 0 0 0 ${x + 7} ${y + 4} C${x + 7} ${y} ${x} ${y - 10} ${x} ${y - 10} Z`, fill: "#8e5fa8", stroke: INK, "stroke-width": 1.6, opacity: 0.9 }));
    }
  }
  const svg = frame("0 0 200 120", "tile", g);
  svg.setAttribute("preserveAspectRatio", "xMidYMid slice");
  svg.classList.add("tile-art");
  return svg;
}

// -- Iotabots, Betabotz, Rumblebots flourishes --------------------------------------------------
// A card that is not a bot (a Buzz, a Code card, a Contraption, a Limit Breach): a device on
// the game's backdrop instead of a robot, chosen from the card's name.
export function deviceArt(game, seed, kind = "device", hint = null) {
  const pal = PALETTES[game] || PALETTES.stakbots;
  const pick = chooser(`${seed}/device`);
  const ln = { stroke: INK, "stroke-width": 2.6, "stroke-linejoin": "round", "stroke-linecap": "round" };
  const metal = pal.metal[pick(pal.metal.length)];
  const accent = pal.accent[pick(pal.accent.length)];
  let g;
  if (kind === "code") {
    g = s("g", {}, s("rect", { x: 20, y: 22, width: 60, height: 52, rx: 6, fill: "#233142", ...ln }),
      s("path", { d: "M22 30 H78", stroke: "#3b4c63", "stroke-width": 3 }),
      [0, 1, 2, 3].map((i) => s("rect", { x: 30 + (i % 2) * 8, y: 38 + i * 8, width: 18 + pick(22), height: 4, rx: 2, fill: [pal.glow, accent, "#ffd166", "#9ecbff"][i] })),
      [28, 40, 52, 64, 76].map((x) => s("path", { d: `M${x - 6} 74 V84`, ...ln, "stroke-width": 2.4 })),
      s("rect", { x: 16, y: 84, width: 68, height: 6, rx: 3, fill: metal, ...ln, "stroke-width": 2 }));
  } else if (kind === "breach") {
    g = s("g", {}, s("path", { d: "M50 14 L88 82 H12 Z", fill: "#f4a261", ...ln }), s("path", { d: "M50 34 L44 52 L56 56 L48 74", fill: "none", ...ln, "stroke-width": 3.5 }));
  } else if (kind === "part") {
    // A component's shape says what it improves: a chip thinks, a cannon fires, a plate holds,
    // a fin flies; anything else is gears or a power cell.
    const byHint = { processor: 1, firepower: 2, structure: 4, agility: 5 }[hint];
    const which = byHint ?? [0, 3][pick(2)];
    g = [
      () => s("g", {}, gearShape(44, 54, 24, 10, metal, INK), gearShape(72, 30, 13, 8, accent, INK)),
      () => s("g", {}, s("rect", { x: 26, y: 28, width: 48, height: 48, rx: 6, fill: "#233142", ...ln }), s("rect", { x: 38, y: 40, width: 24, height: 24, rx: 3, fill: metal, ...ln }),
        [32, 44, 56, 68].map((v) => s("path", { d: `M${v} 22 V28 M${v} 76 V82 M20 ${v} H26 M74 ${v} H80`, ...ln, "stroke-width": 2.4 }))),
      () => s("g", {}, s("rect", { x: 18, y: 44, width: 50, height: 16, rx: 6, fill: metal, ...ln }), s("circle", { cx: 20, cy: 52, r: 10, fill: accent, ...ln }), s("path", { d: "M68 46 L86 38 M68 58 L86 66", ...ln, "stroke-width": 5 })),
      () => s("g", {}, s("rect", { x: 30, y: 26, width: 40, height: 54, rx: 8, fill: metal, ...ln }), s("rect", { x: 42, y: 18, width: 16, height: 8, rx: 2, fill: INK }), s("path", { d: "M52 36 L42 54 H54 L46 72", fill: "none", stroke: pal.glow, ...{ "stroke-width": 4, "stroke-linejoin": "round" } })),
      () => s("g", {}, s("path", { d: "M50 14 L80 26 V52 Q80 74 50 88 Q20 74 20 52 V26 Z", fill: metal, ...ln }), s("path", { d: "M50 24 L70 32 V52 Q70 68 50 78 Z", fill: "#fff", opacity: 0.3 }),
        [[32, 34], [68, 34], [32, 60], [68, 60]].map(([x, y]) => s("circle", { cx: x, cy: y, r: 2.8, fill: accent, ...ln, "stroke-width": 1.6 }))),
      () => s("g", {}, s("path", { d: "M22 60 L60 36 L82 40 L70 56 L30 68 Z", fill: metal, ...ln }), s("path", { d: "M40 56 L62 44", ...ln }),
        s("path", { d: "M22 60 L8 66 L22 70 Z", fill: "#ffb347", stroke: "#f07f2b", "stroke-width": 2, "stroke-linejoin": "round" }), s("circle", { cx: 70, cy: 46, r: 4, fill: pal.glow, ...ln, "stroke-width": 1.6 })),
    ][which]();
  } else {
    // a gadget: coil, gear and spark (an Iotabots Buzz, a Rumblebots Contraption)
    g = s("g", {}, s("rect", { x: 24, y: 58, width: 52, height: 24, rx: 5, fill: metal, ...ln }),
      s("path", { d: "M34 58 V44 M66 58 V44", ...ln }),
      s("path", { d: "M30 44 Q50 30 70 44", fill: "none", ...ln, "stroke-width": 5 }),
      s("path", { d: "M30 44 Q50 30 70 44", fill: "none", stroke: accent, "stroke-width": 2.4, "stroke-linecap": "round" }),
      s("path", { d: "M50 14 L42 30 H52 L46 44 L62 24 H52 L58 14 Z", fill: "#ffd166", ...ln, "stroke-width": 2 }),
      gearShape(38, 70, 7, 7, accent, INK), s("circle", { cx: 62, cy: 70, r: 4, fill: pal.glow, ...ln, "stroke-width": 2 }));
  }
  return frame("-11 1 122 94", kind, backdrop(pal, pick), s("ellipse", { cx: 50, cy: 92, rx: 32, ry: 4, fill: "rgba(45,37,32,0.2)" }), g);
}

// A Rumblebots bot's faction, worn: ears for Animal, a leaf for Bio, a helmet for Warfare...
export function factionFlourish(factions) {
  const f = (factions || []).map((x) => String(x).toLowerCase());
  const ln = { stroke: INK, "stroke-width": 2.4, "stroke-linejoin": "round", "stroke-linecap": "round" };
  const g = s("g", {});
  if (f.includes("animal")) g.appendChild(s("path", { d: "M40 18 Q42 6 47 14 Q50 4 53 14 Q58 6 60 18 Z", fill: "#e63946", ...ln, "stroke-width": 2 }));
  if (f.includes("bio")) g.appendChild(s("path", { d: "M66 20 Q80 8 88 16 Q80 28 66 20 Z M66 20 L76 15", fill: "#81b29a", ...ln, "stroke-width": 2 }));
  if (f.includes("warfare")) g.appendChild(s("path", { d: "M12 46 L24 42 L26 50 Z", fill: "#5c6b8a", ...ln, "stroke-width": 2 }));
  if (f.includes("appliances")) g.appendChild(s("g", {}, s("path", { d: "M78 66 h10 M78 72 h10", ...ln }), s("circle", { cx: 83, cy: 80, r: 3, fill: "#f6bd60", ...ln, "stroke-width": 1.6 })));
  return g.childNodes.length ? g : null;
}

// The art panel of a card: a figure holding one of the pictures above.
export function artPanel(svg, extraClass = "") {
  const box = document.createElement("div");
  box.className = `card-art${extraClass ? ` ${extraClass}` : ""}`;
  box.appendChild(svg);
  return box;
}

// -- a card, the same frame in every game --------------------------------------------------------
// {game, name, picture (an svg), cost: {icon, value, title}, stats: [{value, label, title, cls,
// icon}], tags (a line of words), text (the rules text), small, classes, detail (a longer text
// than the card shows)}. A card that is not a choice opens its full text on a tap or Enter.
export function gameCard(o) {
  const classes = ["card", "art-card", `art-${o.game}`];
  if (o.small) classes.push("small");
  for (const c of o.classes || []) if (c) classes.push(c);
  const el = document.createElement("div");
  el.className = classes.join(" ");
  const head = document.createElement("div");
  head.className = "card-head";
  const name = document.createElement("div");
  name.className = "card-name";
  name.textContent = o.name;
  head.appendChild(name);
  el.appendChild(head);
  const art = el.appendChild(artPanel(o.picture));
  // The cost sits on the picture's corner, so the name has the card's whole width.
  if (o.cost) art.appendChild(badge(o.cost, "card-cost"));
  const stats = (o.stats || []).filter(Boolean);
  if (stats.length) {
    const row = document.createElement("div");
    row.className = "card-stats";
    for (const st of stats) row.appendChild(badge(st, `stat${st.cls ? ` ${st.cls}` : ""}`));
    el.appendChild(row);
  }
  if (o.tags) {
    const t = document.createElement("div");
    t.className = "card-tags";
    t.textContent = o.tags;
    el.appendChild(t);
  }
  if (o.text) {
    const t = document.createElement("div");
    t.className = "card-text";
    t.textContent = o.text;
    el.appendChild(t);
  }
  for (const x of o.after || []) if (x) el.appendChild(x);
  const numbers = stats.map((st) => `${st.title || st.label || ""} ${st.value}`.trim());
  if (o.cost) numbers.unshift(`${o.cost.title || "cost"} ${o.cost.value}`);
  const full = [o.name, numbers.join(", "), o.tags, o.text, o.detail].filter(Boolean).join(". ");
  el.title = o.text || o.name;
  el.setAttribute("aria-label", full);
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "group");
  // What the motion (motion.js) follows: the card's identity where the view gives one (a
  // reference to a card drawn elsewhere, such as the card deciding, has none of its own), its
  // name where not, and where it comes from when it is new.
  if (o.key !== undefined && o.key !== null) {
    el.dataset.card = String(o.key);
    if (!o.ref) el.dataset.key = `${o.game}:${o.key}`;
  }
  if (!o.ref) el.dataset.name = o.name;
  if (o.enterFrom) el.dataset.enterFrom = o.enterFrom;
  readable(el, () => detailFor(el, o, full), o.name);
  const explain = (e) => {
    // A card that is a choice takes the choice (its own handler); one that selects, selects.
    if (el.classList.contains("actionable") || el.getAttribute("role") === "button") return;
    e.stopPropagation();
    detailFor(el, o, full);
  };
  el.addEventListener("click", explain);
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      if (el.classList.contains("actionable") || el.getAttribute("role") === "button") return;
      e.preventDefault();
      explain(e);
    }
  });
  return el;
}

// A card that is also a choice is read without choosing it: its "i" (shown on choices only,
// style.css), or a long press on a touch screen. Neither reaches the card's own click.
const LONG_PRESS_MS = 500;

function readable(el, read, name) {
  const art = el.querySelector(".card-art");
  if (art) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "card-read";
    button.title = "Read this card";
    button.setAttribute("aria-label", `Read ${name}`);
    const mark = document.createElement("span");
    mark.textContent = "i";
    mark.setAttribute("aria-hidden", "true");
    button.appendChild(mark);
    button.addEventListener("click", (e) => { e.stopPropagation(); e.preventDefault(); read(); });
    // Enter or Space on the "i" reads; the card's own keys (choose) never hear it.
    button.addEventListener("keydown", (e) => e.stopPropagation());
    art.appendChild(button);
  }
  let timer = null;
  let start = null;
  let pressed = false;
  const stop = () => { clearTimeout(timer); timer = null; };
  el.addEventListener("pointerdown", (e) => {
    if (e.pointerType === "mouse") return;
    pressed = false;
    start = [e.clientX, e.clientY];
    stop();
    timer = setTimeout(() => { timer = null; pressed = true; read(); }, LONG_PRESS_MS);
  });
  el.addEventListener("pointermove", (e) => {
    if (timer && start && Math.hypot(e.clientX - start[0], e.clientY - start[1]) > 10) stop();
  });
  for (const type of ["pointerup", "pointercancel", "pointerleave"]) el.addEventListener(type, stop);
  // The click that ends a long press only read the card: it chooses nothing.
  el.addEventListener("click", (e) => {
    if (!pressed) return;
    pressed = false;
    e.stopImmediatePropagation();
    e.preventDefault();
  }, true);
  el.addEventListener("contextmenu", (e) => { if (timer || pressed) e.preventDefault(); });
}

function detailFor(el, o, full) {
  const art = el.querySelector(".card-art svg");
  showDetail([o.tags, o.text, o.detail].filter(Boolean).join(". ") || full, o.name, art ? art.cloneNode(true) : null);
}

function badge(st, cls) {
  const b = document.createElement("span");
  b.className = cls;
  if (st.title) b.title = st.title;
  if (st.icon) b.appendChild(icon(st.icon));
  const v = document.createElement("b");
  v.textContent = String(st.value);
  b.appendChild(v);
  if (st.label) b.appendChild(document.createTextNode(` ${st.label}`));
  return b;
}

// A face-down card: the game's back.
export function backCard(game, opts = {}) {
  const el = document.createElement("div");
  el.className = `card face-down art-card art-${game}${opts.small ? " small" : ""}${opts.extraClass ? ` ${opts.extraClass}` : ""}`;
  el.title = opts.title || "face-down card";
  el.appendChild(artPanel(cardBack(game), "card-back-art"));
  return el;
}

// A pill with a token's picture before its words ("12 Bitz", "3/5 mana").
export function tokenPill(kind, text, extraClass = "") {
  const p = document.createElement("span");
  p.className = `pill token${extraClass ? ` ${extraClass}` : ""}`;
  p.appendChild(icon(kind));
  p.appendChild(document.createTextNode(text));
  return p;
}
