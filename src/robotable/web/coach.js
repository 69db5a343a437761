// The guided first game's coach (issue 79 point 7): on a guided table, a speech bubble points at
// the choice the game's coach script names (GET /api/games/<game>/coach, the game package's
// data/coach.toml) and says why, in the narration's words; "Next" where a step only explains.
// When the script has run out, the coach gives the live hint ("The coach would play X, because
// ..."), asked for once the player has had a moment to look. The bubble never covers input it
// does not own (it lets clicks through), docks above the phone's bar at the foot of the screen,
// and can be skipped for the rest of the game. play.js tells it what the table shows
// ("robotable:render") and what a hint said ("robotable:hint"); it asks for a hint with
// "robotable:ask-hint". It changes nothing the server sees but hint requests.
import { h } from "./ui.js";

const HINT_AFTER_MS = 2500; // a player still looking after this long is offered the live hint
const PHONE = window.matchMedia("(max-width: 700px)");

const coach = {
  script: null, // the coach data, once loaded
  loading: false,
  page: null, // the last render's table state from play.js
  hint: null, // the last hint frame for this step
  hintTimer: null,
  hintAsked: -1, // the step a hint was asked for
  bubble: null,
  target: null,
};

function tableKey() {
  return coach.page && coach.page.table ? `robotable-coach-${coach.page.table.id}` : null;
}

// What the player did with the guide at this table: skipped, and the Next presses per decision.
function memory() {
  const key = tableKey();
  try {
    const stored = JSON.parse(sessionStorage.getItem(key) || "{}");
    return stored && typeof stored === "object" ? stored : {};
  } catch (_) { return {}; }
}

function remember(change) {
  const key = tableKey();
  const next = { ...memory(), ...change };
  try { sessionStorage.setItem(key, JSON.stringify(next)); } catch (_) { /* storage off */ }
  coach.memo = next;
}

function recall() {
  if (!coach.memo || coach.memoKey !== tableKey()) {
    coach.memo = memory();
    coach.memoKey = tableKey();
  }
  return coach.memo;
}

async function loadScript(game) {
  if (coach.script || coach.loading) return;
  coach.loading = true;
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(game)}/coach`);
    if (response.ok) coach.script = await response.json();
  } catch (_) { /* no coach: the table plays as any other */ }
  coach.loading = false;
  show();
}

// The player's decisions so far: the steps of the log that were theirs.
function decisionsMade(page) {
  return (page.log || []).filter((entry) => entry.seat === page.you).length;
}

// The script's steps grouped by decision: the explanations before each choice, then the choice.
function groups(steps) {
  const out = [];
  let explains = [];
  for (const step of steps) {
    if (step.explain) explains.push(step);
    else {
      out.push({ explains, choice: step });
      explains = [];
    }
  }
  return { groups: out, trailing: explains };
}

function matches(step, legal) {
  if (step.type && legal.action.type !== step.type) return false;
  return !step.words || legal.label.toLowerCase().includes(step.words.toLowerCase());
}

// The element that stands for legal action `index`: on a phone the bar's button at the foot (the
// bubble docks just above it), else the board's piece, a leftover button, or the bar's.
function controlFor(index) {
  const all = [...document.querySelectorAll(`[data-action-index="${index}"]`)]
    .filter((el) => !el.closest(".coach-bubble") && el.getClientRects().length > 0);
  const within = (sel) => all.find((el) => el.closest(sel));
  if (PHONE.matches) return within("#bar-choices") || within("#board") || within("#actions") || all[0] || null;
  return within("#board") || within("#actions") || within("#bar-choices") || all[0] || null;
}

function visibleArea(selector) {
  if (!selector) return null;
  try {
    const el = document.querySelector(`#board ${selector}`) || document.querySelector(selector);
    return el && el.getClientRects().length > 0 ? el : null;
  } catch (_) { return null; } // a selector this browser does not take
}

function clearMarks() {
  for (const el of document.querySelectorAll(".coach-target, .coach-area")) {
    el.classList.remove("coach-target", "coach-area");
  }
  coach.target = null;
}

function hideBubble() {
  clearMarks();
  if (coach.bubble) coach.bubble.hidden = true;
  document.body.dataset.coach = "off";
}

// What the coach says now: { say, index (the choice it points at, or null), area, next, kind }.
function currentLine(page) {
  const view = page.view;
  const made = decisionsMade(page);
  const { groups: plan, trailing } = groups(coach.script.steps || []);
  const memo = recall();
  const read = (memo.read || {})[made] || 0;
  const legal = view.legal_actions || [];
  if (made < plan.length) {
    const group = plan[made];
    if (read < group.explains.length) {
      const step = group.explains[read];
      return { say: step.say, index: null, area: step.area, next: true, kind: "explain", number: made };
    }
    const found = legal.find((a) => matches(group.choice, a));
    // The player left the script (an undo, another choice): the live hint takes over.
    if (found) return { say: group.choice.say, index: found.index, area: group.choice.area, next: false, kind: "choice", number: made };
  } else if (made === plan.length) {
    const extra = [...trailing.map((s) => s.say), coach.script.after];
    if (read < extra.length) return { say: extra[read], index: null, area: null, next: true, kind: "after", number: made };
  }
  return hintLine(page);
}

function hintLine(page) {
  const frame = coach.hint;
  if (frame && frame.step === page.step && frame.options && frame.options.length) {
    const best = frame.options[0];
    const because = best.why ? `, because ${lowerFirst(best.why.replace(/\.$/, ""))}` : "";
    return { say: `The coach would ${best.label}${because}.`, index: best.index, area: null, next: false, kind: "hint" };
  }
  return { say: "Your move. The coach is looking at the table…", index: null, area: null, next: false, kind: "waiting" };
}

function lowerFirst(text) {
  // "You play ..." reads on after "because": only a leading "You"/"Your" is lowered.
  return String(text).replace(/^(You|Your)\b/, (w) => w.toLowerCase());
}

function ensureBubble() {
  if (coach.bubble) return coach.bubble;
  const text = h("p", { class: "coach-say", id: "coach-say" });
  const next = h("button", { type: "button", class: "coach-next", id: "coach-next" }, "Next");
  const skip = h("button", { type: "button", class: "coach-skip small-button", id: "coach-skip" }, "Skip the guide");
  next.addEventListener("click", () => {
    const made = decisionsMade(coach.page);
    const read = { ...(recall().read || {}) };
    read[made] = (read[made] || 0) + 1;
    remember({ read });
    show();
  });
  skip.addEventListener("click", () => {
    remember({ skipped: true });
    hideBubble();
    document.body.dataset.coach = "skipped";
  });
  coach.bubble = h("aside", { class: "coach-bubble", id: "coach", role: "status", "aria-live": "polite", hidden: true },
    h("div", { class: "coach-head" }, h("b", {}, "Coach"), skip),
    text,
    h("div", { class: "coach-buttons" }, next),
    h("span", { class: "coach-arrow", "aria-hidden": "true" }));
  document.body.appendChild(coach.bubble);
  return coach.bubble;
}

function show() {
  const page = coach.page;
  if (!page || !page.table || !page.table.guided || !coach.script) return;
  if (recall().skipped) {
    hideBubble();
    document.body.dataset.coach = "skipped";
    return;
  }
  const view = page.view;
  const deciding = view && page.you !== null && view.current_player === page.you && !view.terminal;
  if (!deciding) {
    hideBubble();
    return;
  }
  const line = currentLine(page);
  const bubble = ensureBubble();
  clearMarks();
  bubble.querySelector("#coach-say").textContent = line.say;
  bubble.querySelector("#coach-next").hidden = !line.next;
  bubble.dataset.kind = line.kind;
  bubble.hidden = false;
  document.body.dataset.coach = line.kind;
  let anchor = null;
  if (line.index !== null && line.index !== undefined) {
    for (const el of document.querySelectorAll(`[data-action-index="${line.index}"]`)) el.classList.add("coach-target");
    anchor = controlFor(line.index);
    document.body.dataset.coachIndex = String(line.index);
  } else {
    delete document.body.dataset.coachIndex;
  }
  const area = visibleArea(line.area);
  if (area) area.classList.add("coach-area");
  coach.target = anchor || area;
  place();
  if (line.kind === "waiting") askHintSoon(page.step);
}

// The live hint is asked for only when the player is still looking (no request per move).
function askHintSoon(step) {
  if (coach.hintAsked === step || coach.hintTimer) return;
  coach.hintTimer = setTimeout(() => {
    coach.hintTimer = null;
    const page = coach.page;
    if (!page || page.step !== step || recall().skipped) return;
    const deciding = page.view && page.view.current_player === page.you && !page.view.terminal;
    if (!deciding || page.pending) return;
    coach.hintAsked = step;
    document.dispatchEvent(new CustomEvent("robotable:ask-hint"));
  }, HINT_AFTER_MS);
}

// The bubble beside its target with the arrow towards it; on a phone it docks at the foot,
// above the bar, and the arrow points down to a choice in the bar or up to the board.
function place() {
  const bubble = coach.bubble;
  if (!bubble || bubble.hidden) return;
  const arrow = bubble.querySelector(".coach-arrow");
  const target = coach.target;
  bubble.classList.toggle("docked", PHONE.matches || !target);
  bubble.style.left = "";
  bubble.style.top = "";
  arrow.hidden = !target;
  if (!target) return;
  let t = target.getBoundingClientRect();
  // What the coach points at is brought into view (once per step: the player may scroll away).
  if ((t.top < 0 || t.bottom > window.innerHeight) && coach.scrolledFor !== coach.page.step) {
    coach.scrolledFor = coach.page.step;
    target.scrollIntoView({ block: "center", inline: "nearest" });
    t = target.getBoundingClientRect();
  }
  if (PHONE.matches || bubble.classList.contains("docked")) {
    const b = bubble.getBoundingClientRect();
    const below = t.top >= b.bottom - 4;
    arrow.dataset.side = below ? "bottom" : "top";
    arrow.style.left = `${clamp(t.left + t.width / 2 - b.left, 16, b.width - 16)}px`;
    return;
  }
  const b = bubble.getBoundingClientRect();
  const margin = 12;
  const room = window.innerHeight - t.bottom;
  const wanted = room >= b.height + margin + 8 ? t.bottom + margin : t.top - b.height - margin;
  const top = clamp(wanted, 8, window.innerHeight - b.height - 8);
  const left = clamp(t.left + t.width / 2 - b.width / 2, 8, window.innerWidth - b.width - 8);
  bubble.style.left = `${left}px`;
  bubble.style.top = `${top}px`;
  arrow.dataset.side = top > t.top ? "top" : "bottom";
  arrow.style.left = `${clamp(t.left + t.width / 2 - left, 16, b.width - 16)}px`;
}

function clamp(x, lo, hi) {
  return Math.max(lo, Math.min(hi, x));
}

document.addEventListener("robotable:render", (event) => {
  const page = event.detail;
  if (!page || !page.table) return;
  if (coach.page && coach.page.step !== page.step) {
    clearTimeout(coach.hintTimer);
    coach.hintTimer = null;
  }
  coach.page = page;
  if (!page.table.guided) return;
  if (!coach.script) {
    loadScript(page.table.game);
    return;
  }
  show();
});

document.addEventListener("robotable:hint", (event) => {
  coach.hint = event.detail;
  if (coach.page && coach.page.table && coach.page.table.guided) show();
});

window.addEventListener("resize", place);
window.addEventListener("scroll", place, { passive: true });
PHONE.addEventListener("change", place);
