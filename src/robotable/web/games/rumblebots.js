// Rumblebots: the Laboratory rows (click a bot to build it, a row's deck to scan it), each
// player's Workshop with crystals, scraps and Contraptions (click a bot to recycle it, a
// Contraption to use it), and the battle's clashes as they are fought.
import { h } from "../ui.js";
import { artPanel, deviceArt, factionFlourish, gameCard, icon, robotArt, tokenPill } from "../art.js";

const TIER_NAMES = ["starter", "tier 1", "tier 2", "tier 3", "tier 4"];

function bot(c, opts = {}) {
  const picture = c.contraption
    ? deviceArt("rumblebots", c.name, "device")
    : robotArt("rumblebots", `${c.name}/${(c.factions || []).join()}`, { might: c.attack, extra: () => factionFlourish(c.factions) });
  return gameCard({
    game: "rumblebots", name: c.name, small: opts.small,
    classes: ["rb-card", `rb-tier-${c.tier}`, c.contraption ? "rb-contraption" : null, c.upright === false ? "rb-used" : null],
    picture,
    cost: { value: c.cost, icon: "scrap", title: "cost in scraps" },
    stats: c.contraption ? [{ value: "gadget", title: "contraption" }] : [
      { value: c.attack, label: "atk", title: "attack", cls: "stat-power" },
      { value: c.defense, label: "def", title: "defense", cls: "stat-def" },
      c.crits ? { value: c.crits, label: "crit", title: "crits" } : null,
      c.barriers ? { value: c.barriers, label: "bar", title: "barriers" } : null,
    ],
    tags: [TIER_NAMES[c.tier] || `tier ${c.tier}`, ...(c.factions || [])].join(" · "),
    text: c.text,
  });
}

// A number whose change floats over it (motion.js): "+2" scraps, "-3" crystals.
function counted(el, key, value) {
  el.dataset.count = key;
  el.dataset.value = String(value);
  return el;
}

function laboratory(view, ctx) {
  const lab = view.laboratory || { rows: [] };
  const box = h("section", { class: "zone rb-lab" }, h("h3", {}, "Laboratory"));
  for (const row of lab.rows) {
    const head = h("div", { class: "rb-row-head" }, icon("deck"), h("b", {}, `Tier ${row.tier}`), ` · deck ${row.deck_count}`, row.open ? "" : " · closed");
    for (const a of ctx.find({ type: "energize_scan", tier: row.tier })) {
      head.appendChild(ctx.bind(h("button", { type: "button", class: "small-button" }, "energize and scan"), a.index, a.label));
    }
    const cards = h("div", { class: "card-row" });
    row.slots.forEach((c, slot) => {
      // A slot empties when its row's deck runs out: draw the gap, not a card.
      const el = c ? bot(c, { small: true }) : h("div", { class: "card rb-card small rb-empty", "aria-label": `Tier ${row.tier} slot ${slot + 1}: empty` },
        h("div", { class: "card-name muted" }, "empty slot"), artPanel(icon("scrapheap")));
      el.dataset.card = `lab-${row.tier}-${slot}`;
      const build = ctx.find({ type: "build_lab", tier: row.tier, slot })[0];
      if (build) ctx.bind(el, build.index, build.label);
      cards.appendChild(el);
    });
    box.appendChild(h("div", { class: "rb-row" }, head, cards));
  }
  if (lab.recycling_area) box.appendChild(h("p", { class: "muted" }, `Recycling area: ${lab.recycling_area.join(", ") || "empty"}`));
  return box;
}

function workshop(view, s, ctx) {
  const mine = s.seat === ctx.you;
  const c = s.crystals || {};
  const zone = h("section", { class: `zone seat-color-${s.seat}${mine ? " mine" : ""}${view.current_player === s.seat ? " deciding" : ""}`, dataset: { seat: s.seat } },
    h("h3", {}, ctx.seatName(s.seat),
      s.champion ? tokenPill("champion", "Champion", "big rb-champion") : null,
      h("span", { class: "pill" }, `Workshop tier ${s.workshop_tier}`),
      counted(tokenPill("scrap", `${s.scraps} scraps`, "big"), `scraps:${s.seat}`, s.scraps),
      counted(tokenPill("crystal", `crystals ${c.total ?? 0} (storage ${c.storage ?? 0}, reactor ${c.reactor ?? 0}, cryo ${c.cryo_cell ?? 0})`), `crystals:${s.seat}`, c.total ?? 0),
      s.hand_count ? h("span", { class: "pill" }, `scanned hand ${s.hand_count}`) : null));
  const bots = h("div", { class: "card-row" });
  const used = new Set();
  for (const b of s.bots || []) {
    const el = bot(b, { small: true });
    if (mine) {
      const recycle = ctx.find({ type: "recycle", name: b.name }).find((a) => !used.has(a.index));
      if (recycle) {
        used.add(recycle.index);
        ctx.bind(el, recycle.index, recycle.label);
      }
    }
    bots.appendChild(el);
  }
  zone.appendChild(h("div", { class: "sb-label" }, mine ? "Your Workshop (click a bot to recycle it)" : "Workshop"));
  zone.appendChild(bots);
  if ((s.contraptions || []).length) {
    const row = h("div", { class: "card-row" });
    for (const k of s.contraptions) {
      const el = bot(k, { small: true });
      const use = mine && ctx.find({ type: "use_contraption", name: k.name })[0];
      if (use) ctx.bind(el, use.index, use.label);
      row.appendChild(el);
    }
    zone.appendChild(h("div", { class: "sb-label" }, "Contraptions"));
    zone.appendChild(row);
  }
  if (mine && Array.isArray(s.hand) && s.hand.length) {
    const row = h("div", { class: "card-row" });
    for (const k of s.hand) {
      const el = bot(k, { small: true });
      const build = ctx.find({ type: "build_scanned", name: k.name })[0];
      if (build) ctx.bind(el, build.index, build.label);
      row.appendChild(el);
    }
    zone.appendChild(h("div", { class: "sb-label" }, "Scanned hand"));
    zone.appendChild(row);
  }
  return zone;
}

// The clash being fought, in the terminal board's words: who defends and attacks with what,
// and the numbers that decide it.
function clash(b, ctx) {
  const gang = (label, cards) => h("div", {}, h("div", { class: "sb-label" }, label),
    h("div", { class: "card-row" }, cards.length ? cards.map((c) => bot(c, { small: true })) : h("span", { class: "muted" }, "none")));
  const names = (cards, none) => cards.map((c) => c.name).join(", ") || none;
  const lines = [`Clash: Champion ${ctx.seatName(b.champion)} defends with ${names(b.defense_gang, "nothing")}.`];
  const gangs = [gang("Defense gang", b.defense_gang)];
  if (b.challenger !== null && b.challenger !== undefined) {
    lines.push(`Challenger ${ctx.seatName(b.challenger)} attacks with ${names(b.attack_gang, "nothing yet")}.`);
    lines.push(`Attack ${b.attack} vs defense ${b.defense}; crits ${b.crits} of ${b.crits_needed} needed.`);
    gangs.push(gang("Attack gang", b.attack_gang));
  }
  const mods = Object.entries(b.modifiers || {}).filter(([, v]) => v).map(([k, v]) => `${k} ${v > 0 ? "+" : ""}${v}`);
  if (mods.length) lines.push(`This clash's modifiers: ${mods.join(", ")}.`);
  return h("div", {}, h("div", { class: "rb-gangs" }, gangs), lines.map((line) => h("p", { class: "rb-clash-line" }, line)));
}

export default {
  render(root, view, ctx) {
    root.appendChild(h("section", { class: "zone" }, h("h3", {}, `Round ${view.round}`,
      h("span", { class: "pill" }, `phase ${view.phase}`),
      view.showdown ? h("span", { class: "pill rb-champion" }, "Showdown") : null,
      h("span", { class: "pill" }, `turn order ${view.turn_order.map((s) => s + 1).join(" → ")} (${view.direction})`),
      tokenPill("crystal", `crystal supply ${view.crystal_supply}`))));
    const order = [...view.seats].sort((a, b) => (a.seat === ctx.you) - (b.seat === ctx.you));
    const columns = h("div", { class: "rb-columns" });
    const left = h("div", {});
    for (const s of order) left.appendChild(workshop(view, s, ctx));
    columns.appendChild(left);
    columns.appendChild(laboratory(view, ctx));
    root.appendChild(columns);
    if (view.battle || (view.battle_log && view.battle_log.length)) {
      const battle = h("section", { class: "zone rb-battle" }, h("h3", {}, `Battle ${view.battle_number ?? ""}`));
      if (view.battle) battle.appendChild(clash(view.battle, ctx));
      // The decision pending in the battle is the prompt's, shown above the board.
      battle.appendChild(h("ol", { class: "rb-clashes" }, (view.battle_log || []).map((line) => h("li", { class: line.startsWith(" ") ? "indent" : "" }, ctx.named(line.trim())))));
      root.appendChild(battle);
    }
  },
};
