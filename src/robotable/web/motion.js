// The table's motion (issue 79 point 2): what the last move did, shown as movement. Cards, bots
// and dice travel from where they were to where they are; rolled dice tumble before they settle;
// a number that changed floats up over what it counts ("-2", "+1"); a move that did several
// things at once (a Stak Bots chain, a Rumblebots battle) is told one step at a time.
//
// The page is never held up: the board is drawn in its final state at once and stays live.
// Movement is transforms on the drawn pieces (the Web Animations API) and a pointer-events:none
// layer; a choice clicked mid-way ends the telling. With prefers-reduced-motion every change is
// instant: nothing moves, tumbles or waits.
//
// The interface, for play.js:
//   const before = capture(board);   just before the board is drawn again
//   play(board, before);             just after, when the drawing is of a new step
//   tell(words, lines);              a frame's narration lines, told one by one
//   finish();                        end whatever is being told (a choice was clicked)
//   speedControls(select)            the speed setting (slow, normal, fast; kept by the browser)
//
// What the drawings mark (the games/*.js modules and art.js):
//   data-key="game:id"     a piece with an identity from the view (a card id, a die id): it
//                          travels from its old place to its new one
//   data-name="Shot Bot"   a piece without one: it travels only when its name is unique among
//                          the unkeyed pieces both before and after (never a guess between two)
//   data-enter-from="key"  where a new piece comes from (a drawn card from the supply)
//   data-count="id" data-value="n"   a number worth floating when it changes
//   data-roll="id" data-face="n"     a rolled die: it tumbles when it is new or shows a new face
import { pipFace } from "./art.js";

const SPEED_KEY = "robotable-motion-speed";
// Milliseconds for each speed: a step of a told sequence, a travel, a tumble, a floating number.
export const SPEEDS = {
  slow: { step: 1500, travel: 650, tumble: 1000, number: 1700 },
  normal: { step: 900, travel: 420, tumble: 700, number: 1300 },
  fast: { step: 400, travel: 240, tumble: 400, number: 900 },
};
// A move is told step by step from this many lines of narration; fewer are read at a glance.
export const STEPS_FROM = 3;
const MOTION = window.matchMedia("(prefers-reduced-motion: reduce)");

export function reduced() {
  return MOTION.matches;
}

export function speed() {
  try {
    const value = localStorage.getItem(SPEED_KEY);
    return Object.hasOwn(SPEEDS, value) ? value : "normal";
  } catch (_) {
    return "normal";
  }
}

const speedListeners = new Set();

export function setSpeed(name) {
  if (!Object.hasOwn(SPEEDS, name)) return;
  try { localStorage.setItem(SPEED_KEY, name); } catch (_) { /* storage off: this page only */ }
  for (const listener of speedListeners) listener(name);
}

// A <select> with the three speeds, kept in step with the setting wherever it is changed.
export function speedControls(select) {
  select.value = speed();
  select.addEventListener("change", () => setSpeed(select.value));
  speedListeners.add((name) => { select.value = name; });
}

// Every animation this module starts goes through here: counted on the body
// (data-motions), so a test can tell that none was started under reduced motion.
let started = 0;
function animate(el, keyframes, options) {
  const animation = el.animate(keyframes, options);
  started += 1;
  document.body.dataset.motions = String(started);
  return animation;
}

// Where a piece is: its box on the screen now (a piece caught mid-travel, where it is seen),
// the place it holds in the drawing (`at`: its container and its rank there) and whether it was
// travelling. A piece whose place is the same moved only because something above it grew: it
// is not animated for that (the page would shimmer at every line of text).
function box(el) {
  const r = el.getBoundingClientRect();
  return { left: r.left, top: r.top, width: r.width, height: r.height, at: place(el), moving: el.classList.contains("traveling") };
}

function place(el) {
  const path = [];
  for (let node = el; node && node.id !== "board"; node = node.parentElement) {
    const d = node.dataset || {};
    const rank = node.parentElement ? Array.prototype.indexOf.call(node.parentElement.children, node) : 0;
    // The first class names what a box is ("zone", "card-row"); later ones say how it looks now.
    const kind = (node.getAttribute("class") || "").split(" ")[0];
    path.push(`${node.tagName}.${kind}[${d.seat ?? ""}/${d.stak ?? ""}/${d.tile ?? ""}]${rank}`);
  }
  return path.join("<");
}

function visible(r) {
  const margin = 40;
  return r.width > 0 && r.height > 0 && r.top + r.height > -margin && r.top < window.innerHeight + margin
    && r.left + r.width > -margin && r.left < window.innerWidth + margin;
}

// Elements by an attribute's value; a value met twice is ambiguous (null): never matched.
function byValue(root, attr, selector = `[${attr}]`) {
  const found = new Map();
  for (const el of root.querySelectorAll(selector)) {
    const value = el.getAttribute(attr);
    found.set(value, found.has(value) ? null : el);
  }
  return found;
}

// -- before and after a drawing -----------------------------------------------------------------
export function capture(root) {
  const keyed = new Map();
  for (const [key, el] of byValue(root, "data-key")) keyed.set(key, el ? box(el) : null);
  const named = new Map();
  for (const el of root.querySelectorAll("[data-name]:not([data-key])")) {
    const r = box(el);
    if (r.width === 0) continue;
    const name = el.dataset.name;
    named.set(name, [...(named.get(name) || []), r]);
  }
  const counts = new Map();
  for (const [key, el] of byValue(root, "data-count")) if (el) counts.set(key, Number(el.dataset.value));
  const rolls = new Map();
  for (const [key, el] of byValue(root, "data-roll")) if (el) rolls.set(key, el.dataset.face);
  return { keyed, named, counts, rolls };
}

export function play(root, before) {
  if (!before || reduced()) return;
  const times = SPEEDS[speed()];
  travels(root, before, times);
  numbers(root, before, times);
  tumbles(root, before, times);
}

function travels(root, before, times) {
  const moving = new Set();
  const arriving = [];
  for (const [key, el] of byValue(root, "data-key")) {
    if (!el) continue;
    // A piece inside one that travels goes with it.
    const holder = el.parentElement && el.parentElement.closest("[data-key]");
    if (holder && moving.has(holder)) continue;
    const old = before.keyed.get(key);
    if (old === null) continue; // two pieces had this key: which one moved is unknown
    if (old === undefined) {
      arriving.push(el);
      continue;
    }
    if (travel(el, old, box(el), times)) moving.add(el);
  }
  // Unkeyed pieces: by name, only where the name is unique among them before and after.
  const now = new Map();
  for (const el of root.querySelectorAll("[data-name]:not([data-key])")) {
    const r = box(el);
    if (r.width === 0) continue;
    now.set(el.dataset.name, now.has(el.dataset.name) ? null : [el, r]);
  }
  for (const [name, here] of now) {
    const was = before.named.get(name);
    if (here && was && was.length === 1) travel(here[0], was[0], here[1], times);
  }
  // New pieces: from where they come (a drawn card from the supply), else turned face-up.
  if (arriving.length > 12) return; // a board drawn anew (a new duel, a new round): no fuss
  for (const el of arriving) {
    const from = el.dataset.enterFrom && before.keyed.get(el.dataset.enterFrom);
    const r = box(el);
    if (!visible(r)) continue;
    if (from) travel(el, from, r, times, true);
    else animate(el, [{ transform: "scaleX(0)" }, { transform: "scaleX(1)" }], { duration: times.travel * 0.8, easing: "ease-out", composite: "add", id: "reveal" });
  }
}

// FLIP: the piece is drawn at its new place and starts from its old one (both boxes on screen
// now; a piece caught mid-travel by a new drawing starts from where it was seen).
function travel(el, old, now, times, entering = false) {
  if (now.width === 0 || old.width === 0 || (!visible(old) && !visible(now))) return false;
  if (!entering && !old.moving && old.at === now.at) return false; // the same place: a reflow
  const dx = old.left + old.width / 2 - (now.left + now.width / 2);
  const dy = old.top + old.height / 2 - (now.top + now.height / 2);
  const clamp = (v) => Math.min(3, Math.max(0.3, v));
  const sx = clamp(old.width / now.width);
  const sy = clamp(old.height / now.height);
  if (Math.abs(dx) < 2 && Math.abs(dy) < 2 && Math.abs(sx - 1) < 0.03 && Math.abs(sy - 1) < 0.03) return false;
  el.classList.add("traveling");
  // Added to the piece's own transform (a choice is drawn raised a little), never replacing it.
  const animation = animate(el, [
    { transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})` },
    { transform: "translate(0px, 0px) scale(1, 1)" },
  ], { duration: entering ? times.travel * 1.2 : times.travel, easing: "cubic-bezier(0.2, 0.7, 0.2, 1)", composite: "add", id: "travel" });
  const done = () => el.classList.remove("traveling");
  animation.finished.then(done, done);
  return true;
}

// -- numbers that changed: "-2" over a bot, "+3" over a score -----------------------------------
let layer = null;

function motionLayer() {
  if (!layer || !layer.isConnected) {
    layer = document.createElement("div");
    layer.className = "motion-layer";
    layer.setAttribute("aria-hidden", "true");
    document.body.appendChild(layer);
  }
  return layer;
}

function numbers(root, before, times) {
  let shown = 0;
  for (const [key, el] of byValue(root, "data-count")) {
    if (!el || !before.counts.has(key) || shown >= 8) continue;
    const change = Number(el.dataset.value) - before.counts.get(key);
    if (!Number.isFinite(change) || change === 0) continue;
    const r = box(el);
    if (!visible(r)) continue;
    // Most numbers are good when they grow (loaves, Bitz, life); a card's damage is not.
    const good = el.dataset.countGood === "down" ? change < 0 : change > 0;
    const tag = document.createElement("div");
    tag.className = `motion-number ${good ? "up" : "down"}`;
    tag.textContent = change > 0 ? `+${change}` : `-${-change}`;
    tag.style.left = `${r.left + r.width / 2}px`;
    tag.style.top = `${r.top + Math.min(r.height / 2, 28)}px`;
    tag.dataset.for = key;
    motionLayer().appendChild(tag);
    const animation = animate(tag, [
      { transform: "translate(-50%, -50%) scale(0.6)", opacity: 0 },
      { transform: "translate(-50%, -90%) scale(1.15)", opacity: 1, offset: 0.18 },
      { transform: "translate(-50%, -150%) scale(1)", opacity: 1, offset: 0.7 },
      { transform: "translate(-50%, -210%) scale(1)", opacity: 0 },
    ], { duration: times.number, easing: "ease-out", id: "number" });
    const gone = () => tag.remove();
    animation.finished.then(gone, gone);
    shown += 1;
  }
}

// -- dice: a short tumble through other faces, then the rolled one --------------------------------
const tumbling = new Map(); // roll key -> {face, until}: a tumble carries on across drawings

function tumbles(root, before, times) {
  const now = performance.now();
  for (const [key, el] of byValue(root, "data-roll")) {
    if (!el) continue;
    const face = el.dataset.face;
    const running = tumbling.get(key);
    if (running && running.face === face && running.until > now + 50) {
      tumble(el, key, running.until - now);
    } else if (before.rolls.get(key) !== face) {
      tumble(el, key, times.tumble);
    }
  }
}

function tumble(el, key, ms) {
  const face = Number(el.dataset.face);
  const settled = el.querySelector("svg");
  if (!settled) return;
  tumbling.set(key, { face: el.dataset.face, until: performance.now() + ms });
  el.dataset.rolling = "true";
  let shown = face;
  const flicker = setInterval(() => {
    if (!el.isConnected) return clearInterval(flicker);
    let next = 1 + Math.floor(Math.random() * 6);
    if (next === shown) next = (next % 6) + 1;
    shown = next;
    el.replaceChildren(pipFace(next));
  }, 85);
  const animation = animate(el, [
    { transform: "rotate(0deg) translateY(0px)" },
    { transform: "rotate(-160deg) translateY(-10px)", offset: 0.3 },
    { transform: "rotate(-290deg) translateY(-4px)", offset: 0.6 },
    { transform: "rotate(-345deg) translateY(-1px)", offset: 0.85 },
    { transform: "rotate(-360deg) translateY(0px)" },
  ], { duration: ms, easing: "ease-out", id: "tumble" });
  const settle = () => {
    clearInterval(flicker);
    if ((tumbling.get(key) || {}).until <= performance.now() + 20) tumbling.delete(key);
    if (!el.isConnected) return;
    el.replaceChildren(settled);
    delete el.dataset.rolling;
  };
  animation.finished.then(settle, settle);
}

// -- a move told step by step -------------------------------------------------------------------
const story = {
  queue: [], // lines still to show
  shown: 0,
  total: 0,
  timer: null,
  closing: false, // the last step is on show: the timer closes the story
  focus: [],
  root: null,
};

function storyEls() {
  return {
    panel: document.getElementById("story"),
    title: document.getElementById("story-title"),
    lines: document.getElementById("story-lines"),
  };
}

// `title` says whose move it was ("Bo's move"); `lines` are the frame's narration. A short move
// is not told (the log has it); one that comes while a story is being told joins it.
export function tell(title, lines, board = null) {
  if (reduced() || !lines || !lines.length) return;
  const { panel, lines: list, title: head } = storyEls();
  if (!panel) return;
  const telling = story.timer !== null;
  if (!telling && lines.length < STEPS_FROM) return;
  story.root = board;
  if (!telling) {
    list.replaceChildren();
    story.shown = 0;
    story.total = 0;
  }
  story.queue.push(...lines.map((text) => ({ text, title })));
  story.total += lines.length;
  panel.hidden = false;
  document.body.dataset.story = "playing";
  if (!telling || story.closing) {
    if (!telling) head.textContent = title;
    clearTimeout(story.timer);
    next();
  }
}

function next() {
  const { lines: list, title: head } = storyEls();
  const item = story.queue.shift();
  if (!item) {
    // The last step stays a moment, then the story closes on the board as it is.
    story.closing = true;
    story.timer = setTimeout(finish, SPEEDS[speed()].step);
    return;
  }
  story.closing = false;
  story.shown += 1;
  head.textContent = `${item.title} · ${story.shown} of ${story.total}`;
  for (const old of list.querySelectorAll(".now")) old.classList.remove("now");
  const li = document.createElement("li");
  li.className = "now";
  li.textContent = item.text;
  list.appendChild(li);
  while (list.children.length > 4) list.firstElementChild.remove();
  spotlight(item.text);
  story.timer = setTimeout(next, SPEEDS[speed()].step);
}

// The pieces a step names (by their card names) are marked while it is read.
function spotlight(text) {
  for (const el of story.focus) el.classList.remove("story-focus");
  story.focus = [];
  if (!story.root || !story.root.isConnected) story.root = document.getElementById("board");
  if (!story.root) return;
  for (const el of story.root.querySelectorAll("[data-name]")) {
    if (el.dataset.name.length > 2 && text.includes(el.dataset.name)) {
      el.classList.add("story-focus");
      story.focus.push(el);
    }
  }
}

export function telling() {
  return story.timer !== null;
}

// End the story at once: the board already shows where it ended.
export function finish() {
  clearTimeout(story.timer);
  story.timer = null;
  story.closing = false;
  story.queue = [];
  for (const el of story.focus) el.classList.remove("story-focus");
  story.focus = [];
  const { panel } = storyEls();
  if (panel) panel.hidden = true;
  if (document.body.dataset.story === "playing") document.body.dataset.story = "done";
}

// Drawn again: the spotlight moves to the new drawing's pieces.
export function redrawn(board) {
  story.root = board;
}

MOTION.addEventListener("change", () => { if (reduced()) finish(); });
