// Iotabots TCG: each player's life, mana, deck, Junk Zone, Bot Zone and hand. Click a hand card
// to summon or activate it; select one of your bots, then click an enemy bot to attack it; click
// a bot to choose it for an effect.
import { h, pressable } from "../ui.js";
import { backCard, deviceArt, gameCard, robotArt, tokenPill } from "../art.js";

let attacker = null; // the slot of the selected attacking bot, kept between frames

// The view's phase names in the rulebook's words, as the terminal board says them (render.py).
const PHASE_WORDS = {
  order: "choosing who goes first", mulligan: "mulligans", main1: "Main Phase 1", battle: "Battle Phase",
  main2: "Main Phase 2", end: "End Phase", over: "the match is over",
};

function card(c, opts = {}) {
  if (!c) return backCard("iotabots", { small: true, extraClass: "ib-card" });
  const isBot = c.atk !== undefined;
  const seed = `${c.name}/${c.type || "bot"}`;
  return gameCard({
    game: "iotabots", name: c.token ? `${c.name} (token)` : c.name, small: opts.small,
    classes: ["ib-card", `ib-${c.type || "bot"}`],
    picture: isBot ? robotArt("iotabots", seed, { might: c.atk }) : deviceArt("iotabots", seed, "device"),
    cost: c.mana !== undefined ? { value: c.mana, icon: "mana", title: "mana" } : null,
    stats: isBot ? [
      { value: c.atk, label: "ATK", title: "attack", cls: "stat-power" },
      { value: c.def, label: "DEF", title: "defense", cls: "stat-def" },
    ] : [{ value: c.type || "Buzz", title: "kind" }],
    text: c.text,
    after: [opts.extra || null],
  });
}

function counted(el, key, value) {
  if (!el) return el;
  el.dataset.count = key;
  el.dataset.value = String(value);
  return el;
}

function fieldBot(bot, seat, ctx, rerender) {
  const extra = [];
  if (bot.attacks_made) extra.push(`attacked ${bot.attacks_made}/${bot.attacks_per_turn}`);
  if (bot.counters) extra.push(`${bot.counters} counters`);
  if (bot.controller !== bot.owner) extra.push(`controlled by ${ctx.seatName(bot.controller)}`);
  const el = card(bot, { extra: extra.length ? h("div", { class: "card-tags" }, extra.join(" · ")) : null });
  el.dataset.slot = bot.slot;
  el.dataset.card = `${seat}-${bot.slot}-${bot.name}`;
  // A bot has no identity in the view but its slot: it travels by its name (motion.js), and
  // a change of its ATK or DEF floats over the number.
  counted(el.querySelector(".stat-power"), `atk:${el.dataset.card}`, bot.atk);
  counted(el.querySelector(".stat-def"), `def:${el.dataset.card}`, bot.def);
  const choose = ctx.find({ type: "choose_bot", seat, slot: bot.slot })[0];
  if (choose) return ctx.bind(el, choose.index, choose.label);
  if (seat === ctx.you) {
    const attacks = ctx.find({ type: "attack", slot: bot.slot });
    if (attacks.length) {
      el.classList.add("selectable");
      if (attacker === bot.slot) el.classList.add("selected");
      pressable(el, () => {
        attacker = bot.slot;
        rerender();
        const again = document.querySelector(`[data-card="${CSS.escape(el.dataset.card)}"]`);
        if (again) again.focus();
      }, `${bot.name}: choose it to attack with`);
      el.setAttribute("aria-pressed", String(attacker === bot.slot));
    }
  } else if (attacker !== null) {
    const hit = ctx.find({ type: "attack", slot: attacker, target: bot.slot })[0];
    if (hit) ctx.bind(el, hit.index, hit.label);
  }
  return el;
}

function playerZone(view, p, ctx, rerender) {
  const mine = p.seat === ctx.you;
  const zone = h("section", { class: `zone seat-color-${p.seat}${mine ? " mine" : ""}${view.current_player === p.seat ? " deciding" : ""}`, dataset: { seat: p.seat } },
    h("h3", {}, ctx.seatName(p.seat),
      counted(tokenPill("life", `${p.life} life`, "big ib-life"), `life:${p.seat}`, p.life),
      tokenPill("mana", `${p.mana}/${p.mana_max} mana`, "big ib-mana"),
      tokenPill("deck", `deck ${p.deck_count}`),
      h("span", { class: "pill" }, `duel wins ${p.duel_wins}`),
      p.deck_name ? h("span", { class: "pill" }, p.deck_name.replace(/_/g, " ")) : null));
  const field = h("div", { class: "card-row ib-field" }, (p.field || []).map((b) => fieldBot(b, p.seat, ctx, rerender)));
  if (!p.field || p.field.length === 0) field.appendChild(h("span", { class: "muted" }, "no bots"));
  zone.appendChild(h("div", { class: "sb-label" }, "Bot Zone"));
  zone.appendChild(field);
  if (mine && attacker !== null) {
    // Attacks that do not aim at a bot (straight at the player) get a button.
    const bots = new Set((view.players.find((q) => q.seat !== ctx.you)?.field || []).map((b) => b.slot));
    for (const a of ctx.find({ type: "attack", slot: attacker })) {
      if (!bots.has(a.action.target)) zone.appendChild(ctx.bind(h("button", { type: "button" }, a.label), a.index, a.label));
    }
  }
  const hand = h("div", { class: "card-row" });
  if (p.hand) {
    const used = new Set();
    for (const c of p.hand) {
      const el = card(c, { small: true });
      const options = [...ctx.find({ type: "summon", card: c.name }), ...ctx.find({ type: "play_buzz", card: c.name })]
        .filter((a) => !used.has(a.index));
      if (options.length) {
        used.add(options[0].index);
        ctx.bind(el, options[0].index, options[0].label);
      }
      hand.appendChild(el);
    }
  } else {
    for (const c of p.known_hand || []) hand.appendChild(card(c, { small: true }));
    for (let i = (p.known_hand || []).length; i < p.hand_count; i++) hand.appendChild(card(null));
  }
  zone.appendChild(h("div", { class: "sb-label" }, mine ? "Your hand" : `Hand (${p.hand_count})`));
  zone.appendChild(hand);
  const junk = p.junk || [];
  zone.appendChild(h("details", { class: "ib-junk" }, h("summary", {}, `Junk Zone (${junk.length})`),
    h("div", { class: "card-row" }, junk.map((c) => card(c, { small: true })))));
  return zone;
}

function draw(root, view, ctx) {
  const attackSlots = new Set(ctx.legal.filter((a) => a.action.type === "attack").map((a) => a.action.slot));
  if (!attackSlots.has(attacker)) attacker = attackSlots.size ? [...attackSlots][0] : null;
  for (const a of ctx.legal) if (a.action.type === "attack") ctx.claim(a.index);
  const rerender = () => { root.textContent = ""; draw(root, view, ctx); };
  const m = view.match || {};
  root.appendChild(h("div", { class: "zone" }, h("h3", {}, `Duel ${view.duel}, turn ${view.duel_turn}`,
    h("span", { class: "pill" }, PHASE_WORDS[view.phase] || view.phase),
    h("span", { class: "pill" }, `match wins ${(m.wins || []).join(" - ")}`))));
  const order = [...view.players].sort((a, b) => (a.seat === ctx.you) - (b.seat === ctx.you));
  for (const p of order) root.appendChild(playerZone(view, p, ctx, rerender));
  if (attacker !== null) {
    root.appendChild(h("p", { class: "muted" }, "Your highlighted bot attacks: click an enemy bot (or the button for a direct attack)."));
  }
}

export default { render: draw };
