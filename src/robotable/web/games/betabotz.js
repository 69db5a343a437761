// Betabotz: the auction (click a lot to bid on it, bid buttons beside it), the mission track and
// the current mission, team proposals with reward shares, each player's Betabot with its
// attributes, components, Limit Breaches and Code cards (click one to play it).
import { h, humanize } from "../ui.js";
import { deviceArt, gameCard, icon, robotArt, tokenPill } from "../art.js";

const ATTRS = ["agility", "firepower", "structure", "processor"];

function attrTable(rows) {
  return h("table", { class: "bz-attrs" },
    h("tr", {}, h("th", {}, ""), ATTRS.map((a) => h("th", { title: a }, a.slice(0, 3)))),
    rows.filter(([, v]) => v).map(([label, values]) => h("tr", {}, h("td", {}, label), ATTRS.map((a) => h("td", {}, String(values[a] ?? 0))))));
}

const SHORT = { agility: "AGI", firepower: "FIR", structure: "STR", processor: "PRO" };

// A Betabot is a robot; a component a part (gear, chip, arm, cell); a Code card a screen of
// code; a Limit Breach a warning sign.
function smallCard(c, extra, kind = null) {
  const sort = kind || (c.attributes ? "bot" : c.attribute && !c.mods ? "breach" : "part");
  const picture = sort === "bot" ? robotArt("betabotz", c.name || "?", { might: c.attributes ? c.attributes.firepower : 1 })
    : deviceArt("betabotz", c.name || "?", sort, c.mods ? Object.keys(c.mods)[0] : c.attribute);
  const stats = [];
  if (c.attributes) for (const a of ATTRS) stats.push({ value: c.attributes[a], label: SHORT[a], title: a });
  if (c.mods) for (const [k, v] of Object.entries(c.mods)) stats.push({ value: `${v > 0 ? "+" : ""}${v}`, label: SHORT[k] || k, title: k, cls: v > 0 ? "stat-up" : "damage" });
  const classes = ["bz-card", c.gold ? "bz-gold" : null, c.green ? "bz-green" : null, sort === "code" ? "bz-code" : null];
  return gameCard({
    // A Betabot, component or Limit Breach has an id: it travels from the auction to its
    // winner (motion.js); a Code card goes by its name.
    game: "betabotz", name: c.name || "?", small: true, classes, picture, key: c.id !== undefined && c.id !== null ? `${sort}-${c.id}` : null,
    cost: c.min_bid !== undefined ? { value: c.min_bid, icon: "bitz", title: "minimum bid in Bitz" } : null,
    stats,
    tags: c.attribute ? humanize(c.attribute) : null,
    text: c.text,
    after: [extra || null],
  });
}

// A number whose change floats over it (motion.js): "+6" Bitz.
function counted(el, key, value) {
  el.dataset.count = key;
  el.dataset.value = String(value);
  return el;
}

function auction(view, ctx) {
  const a = view.auction;
  if (!a) return null;
  const box = h("section", { class: "zone bz-auction" }, h("h3", {}, `Auction: ${a.kind}`, a.actor !== null && a.actor !== undefined ? h("span", { class: "pill" }, `${ctx.seatName(a.actor)} to act`) : null));
  const lots = h("div", { class: "card-row" });
  for (const lot of a.lots || []) {
    const bid = lot.bid !== null && lot.bid !== undefined ? h("div", { class: "bz-bid" }, `bid ${lot.bid} by ${ctx.seatName(lot.bidder)}`) : null;
    const el = smallCard(lot.card || {}, bid);
    const choose = ctx.find({ type: "choose_lot", slot: lot.slot })[0];
    if (choose) ctx.bind(el, choose.index, choose.label);
    lots.appendChild(el);
  }
  box.appendChild(lots);
  const bids = ctx.legal.filter((x) => x.action.type === "bid");
  if (bids.length >= 6) {
    // An amount is typed, not picked from dozens of buttons: a number field within the legal
    // range, and the opening (lowest) and highest bids a click away.
    const byAmount = new Map(bids.map((b) => [b.action.amount, b]));
    const amounts = [...byAmount.keys()].sort((x, y) => x - y);
    const low = amounts[0];
    const high = amounts[amounts.length - 1];
    const input = h("input", { type: "number", class: "bz-amount", min: low, max: high, step: 1, value: low, inputmode: "numeric", "aria-label": `Bid in Bitz, ${low} to ${high}` });
    const note = h("span", { class: "muted", role: "status" }, `${low} to ${high} Bitz`);
    const place = () => {
      const chosen = byAmount.get(Number(input.value));
      if (chosen) ctx.act(chosen.index);
      else note.textContent = `A bid here is a whole number from ${low} to ${high} Bitz.`;
    };
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); place(); } });
    const go = h("button", { type: "button", class: "action-button" }, "Bid");
    go.addEventListener("click", place);
    for (const b of bids) ctx.claim(b.index);
    const row = h("div", { class: "action-group bz-bid-entry" }, h("span", { class: "action-kind" }, "Bid"), input, go, note,
      ctx.bind(h("button", { type: "button", class: "small-button" }, `lowest (${low})`), byAmount.get(low).index, byAmount.get(low).label),
      ctx.bind(h("button", { type: "button", class: "small-button" }, `highest (${high})`), byAmount.get(high).index, byAmount.get(high).label));
    box.appendChild(row);
  } else if (bids.length) {
    const row = h("div", { class: "action-group" }, h("span", { class: "action-kind" }, "Bid"));
    for (const b of bids) row.appendChild(ctx.bind(h("button", { type: "button", class: "action-button" }, `${b.action.amount}`), b.index, b.label));
    box.appendChild(row);
  }
  return box;
}

// The mission being played, in the terminal board's words (render.py): what it needs, pays and
// costs, each unit's values against it, the Code cards in force and who holds priority.
function mission(m, ctx) {
  const needs = Object.entries(m.require || {}).map(([a, n]) => `${a} ${n}`).join(", ");
  const box = h("div", { class: "bz-mission" },
    h("p", {}, h("b", {}, m.name), ` (${m.ground}): needs ${needs}; reward ${m.reward} Bitz; on failure: ${m.consequence}`));
  const rows = (m.units || []).map((u) => {
    const ok = Object.entries(m.require || {}).every(([a, n]) => u.values[a] >= n);
    const who = `${ctx.seatNames(u.members)} ${u.members.length > 1 ? "together" : "alone"}`;
    return [`${who}: ${ok ? "succeeds" : "fails"}`, u.values];
  });
  if (rows.length) box.appendChild(attrTable(rows));
  for (const ch of m.code_changes || []) {
    box.appendChild(h("p", { class: "muted" }, `In force: ${ch.card} gives ${ctx.seatName(ch.player)} ${ch.amount > 0 ? "+" : ""}${ch.amount} ${ch.attribute}.`));
  }
  if (m.priority !== undefined && m.priority !== null) {
    box.appendChild(h("p", {}, `Priority: ${ctx.seatName(m.priority)} (${m.passes_in_a_row} passes in a row).`));
  }
  return box;
}

function missions(view, ctx) {
  const track = h("div", { class: "bz-track" }, (view.mission_stack || []).map((m) =>
    h("div", { class: `bz-space${m.number === view.mission_number ? " current" : ""}`, title: m.mission || "not flipped" },
      icon("mission"), h("b", {}, String(m.number)), h("small", {}, m.ground), h("div", {}, m.mission || "?"))));
  const box = h("section", { class: "zone" }, h("h3", {}, `Mission ${view.mission_number}/${view.missions_total}`,
    h("span", { class: "pill" }, `phase ${view.phase}`), h("span", { class: "pill" }, `stage ${view.stage}`),
    tokenPill("bitz", `bank ${view.bank} Bitz`)), track);
  if (view.mission) box.appendChild(mission(view.mission, ctx));
  const p = view.proposal;
  if (p) {
    const keeps = p.keeps !== undefined && p.keeps !== null ? `, the proposer keeps ${p.keeps} Bitz of the reward` : "";
    box.appendChild(h("p", { class: "bz-proposal" }, `Proposal by ${ctx.seatName(p.proposer)}: a team of ${ctx.seatNames(p.members)}${keeps}.`));
  }
  // The decision pending is the prompt's, shown above the board.
  return box;
}

function seatPanel(view, s, ctx) {
  const mine = s.seat === ctx.you;
  const zone = h("section", { class: `zone seat-color-${s.seat}${mine ? " mine" : ""}${view.current_player === s.seat ? " deciding" : ""}`, dataset: { seat: s.seat } },
    h("h3", {}, ctx.seatName(s.seat), counted(tokenPill("bitz", `${s.bitz} Bitz`, "big"), `bitz:${s.seat}`, s.bitz),
      s.betabot ? h("span", { class: "pill" }, s.betabot.name) : h("span", { class: "pill" }, "no Betabot yet"),
      s.starter_chip ? h("span", { class: "pill" }, "starter chip") : null,
      s.team !== null && s.team !== undefined ? h("span", { class: "pill" }, `team of ${ctx.seatName(s.team)}`) : null,
      s.share !== null && s.share !== undefined ? h("span", { class: "pill" }, `share ${s.share}`) : null,
      tokenPill("code", `code cards ${s.hand_count}`)));
  for (const kind of ["invite", "choose_seat"]) {
    for (const a of ctx.find({ type: kind, seat: s.seat })) {
      zone.querySelector("h3").appendChild(ctx.bind(h("button", { type: "button", class: "small-button" }, kind === "invite" ? "invite" : "target"), a.index, a.label));
    }
  }
  const table = s.attributes ? attrTable([["attributes", s.attributes], ["mission", s.mission_values], ["damage", Object.values(s.damage || {}).some(Boolean) ? s.damage : null]]) : null;
  // The player's Betabot in person beside its numbers.
  const portrait = s.betabot ? gameCard({
    game: "betabotz", name: s.betabot.name || "Betabot", small: true, classes: ["bz-card", "bz-betabot"], key: `bot-${s.betabot.id}`,
    picture: robotArt("betabotz", s.betabot.name || "Betabot", { might: (s.attributes || {}).firepower }),
    text: s.betabot.text,
  }) : null;
  if (portrait || table) zone.appendChild(h("div", { class: "bz-seat-row" }, portrait, table));
  const comps = h("div", { class: "card-row" });
  for (const c of s.components || []) {
    const el = smallCard(c);
    const discard = ctx.find({ type: "discard_component", card: c.id })[0];
    if (discard) ctx.bind(el, discard.index, discard.label);
    comps.appendChild(el);
  }
  for (const b of s.breaches || []) comps.appendChild(smallCard(b, null, "breach"));
  if (mine && Array.isArray(s.hand)) {
    s.hand.forEach((c, i) => {
      const code = typeof c === "object" ? c : { name: String(c) };
      const el = smallCard(code, null, "code");
      const play = ctx.legal.find((a) => a.action.type === "play_code" && (a.action.code === (code.id ?? i) || a.action.name === code.name));
      if (play) ctx.bind(el, play.index, play.label);
      comps.appendChild(el);
    });
  }
  zone.appendChild(comps);
  return zone;
}

export default {
  render(root, view, ctx) {
    root.appendChild(missions(view, ctx));
    const au = auction(view, ctx);
    if (au) root.appendChild(au);
    const order = [...view.seats].sort((a, b) => (a.seat === ctx.you) - (b.seat === ctx.you));
    for (const s of order) root.appendChild(seatPanel(view, s, ctx));
    const pool = h("div", { class: "card-row" });
    for (const b of view.breach_pool || []) {
      const el = smallCard({ ...b }, b.holder !== null && b.holder !== undefined ? h("div", { class: "card-tags" }, `held by ${ctx.seatName(b.holder)}`) : null);
      const take = ctx.find({ type: "take_breach", breach: b.id })[0];
      if (take) ctx.bind(el, take.index, take.label);
      pool.appendChild(el);
    }
    root.appendChild(h("details", { class: "zone", open: ctx.legal.some((a) => a.action.type === "take_breach") },
      h("summary", {}, "Limit Breaches"), pool));
  },
};
