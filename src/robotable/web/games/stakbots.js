// Stak Bots: every seat's stak as a pile (face-down cards as backs, the top card face-up), your
// hand as cards, the supply and the scrapheap between. Click a hand card to play it, an opponent's
// top card to attack it, a stak card to choose it for an entry effect.
import { h } from "../ui.js";
import { backCard, gameCard, robotArt } from "../art.js";

function numbers(info) {
  const power = info.current_power !== undefined && info.current_power !== info.power
    ? `${info.current_power} (${info.power})` : String(info.power);
  return [
    { value: power, label: "pow", title: "power", cls: "stat-power" },
    { value: info.rank, label: "rank", title: "rank" },
    info.damage ? { value: info.damage, label: "dmg", title: "damage", cls: "damage" } : null,
  ];
}

// A card's power as it stands (damage lowers it): a change floats over the card (motion.js).
function counted(el, info) {
  el.dataset.count = `power:${info.id}`;
  el.dataset.value = String(info.current_power ?? info.power);
  return el;
}

// `opts.ref`: the card is shown again where it is talked about (the card deciding, an entry
// effect waiting, the attacker), so it has no identity of its own there: the motion follows the
// card where it lies. `opts.enterFrom`: where a new card comes from (a drawn card, the supply).
function card(c, opts = {}) {
  if (!c || c.face_up === false && !c.known) return backCard("stakbots", { small: true, extraClass: "sb-card" });
  const info = c.known || c;
  const el = gameCard({
    game: "stakbots", name: info.name, small: opts.small, key: info.id, ref: opts.ref, enterFrom: opts.enterFrom,
    classes: ["sb-card", c.known ? "known-face-down" : null],
    picture: robotArt("stakbots", info.bot || info.name, { might: info.power }),
    stats: numbers(info),
    text: info.text,
    tags: c.known ? "face-down, known" : null,
  });
  return opts.ref ? el : counted(el, info);
}

// A card under the top of a stak, seen from the side: a face-down card is a sliver of its back;
// a face-up one a strip with its picture, name and numbers, so every card in the pile is read
// (its text opens on a tap), however deep it lies.
function underCard(c) {
  if (!c || c.face_up === false && !c.known) {
    const el = backCard("stakbots", { extraClass: "sb-card sb-under sb-sliver" });
    el.title = "face-down card";
    return el;
  }
  const info = c.known || c;
  const el = gameCard({
    game: "stakbots", name: info.name, key: info.id,
    classes: ["sb-card", "sb-under", "sb-strip", c.known ? "known-face-down" : null],
    picture: robotArt("stakbots", info.bot || info.name, { might: info.power }),
    stats: numbers(info),
    detail: c.known ? "Face-down, known to you." : null,
  });
  el.title = info.text || info.name;
  el.setAttribute("aria-label", `${el.getAttribute("aria-label")}. ${info.text || ""}`);
  return counted(el, info);
}

function stakPile(cards, ctx, targetable) {
  const pile = h("div", { class: "sb-stak" });
  const n = cards.length;
  // The top card first, then the pile beneath it down to the bottom card.
  for (let depth = 0; depth < n; depth++) {
    const c = cards[n - 1 - depth];
    const el = depth === 0 ? card(c) : underCard(c);
    el.classList.add(depth === 0 ? "sb-top" : "sb-under");
    const choice = targetable.find((a) => a.action.depth === depth);
    if (choice) ctx.bind(el, choice.index, choice.label);
    pile.appendChild(el);
  }
  if (n === 0) pile.appendChild(h("div", { class: "muted" }, "empty stak"));
  return pile;
}

function seatZone(view, s, ctx, name = null) {
  const mine = s.seat === ctx.you;
  const classes = ["zone", `seat-color-${s.seat}`];
  if (mine) classes.push("mine");
  if (view.current_player === s.seat) classes.push("deciding");
  if (!s.in_game) classes.push("out");
  const header = h("h3", {},
    h("span", {}, name || ctx.seatName(s.seat)),
    view.active === s.seat ? h("span", { class: "pill" }, "turn") : null,
    h("span", { class: "pill" }, `stak ${s.stak_size}`),
    name ? h("span", { class: "pill" }, "plays by itself") : h("span", { class: "pill" }, `hand ${s.hand_size}`),
    s.team !== undefined && s.team !== null ? h("span", { class: "pill" }, `team ${s.team + 1}`) : null,
    s.in_game ? null : h("span", { class: "pill out" }, "out of the game"));
  const zone = h("section", { class: classes.join(" "), dataset: { seat: s.seat } }, header);

  for (const a of ctx.find({ type: "choose_player", seat: s.seat })) {
    header.appendChild(ctx.bind(h("button", { type: "button" }, "Choose this player"), a.index, a.label));
  }
  const row = h("div", { class: "sb-row" });
  // One pile per stak (several per seat with the `staks` option).
  const staks = s.staks || [{ stak: 0, cards: s.stak }];
  const ordinal = ["First", "Second", "Third"];
  for (const k of staks) {
    const j = k.stak;
    const targets = ctx.legal.filter((a) => a.action.type === "target" && a.action.seat === s.seat && (a.action.stak || 0) === j);
    const title = staks.length > 1 ? `${ordinal[j]} stak (top card first)` : "Stak (top card first)";
    const stakBox = h("div", { class: "sb-stak-box", dataset: { stak: j } }, h("div", { class: "sb-label" }, title), stakPile(k.cards, ctx, targets));
    row.appendChild(stakBox);
    // Attacks: click the opponent's top card (also offered as a button beside it, naming the
    // attacking stak when there are several).
    for (const a of ctx.legal.filter((x) => x.action.type === "attack" && x.action.target === s.seat && (x.action.target_stak || 0) === j)) {
      const top = stakBox.querySelector(".sb-top");
      if (top && !top.dataset.actionIndex) ctx.bind(top, a.index, a.label);
      else stakBox.appendChild(ctx.bind(h("button", { type: "button" }, "Attack this stak"), a.index, a.label));
      top && top.classList.add("sb-attackable");
    }
    if (mine) {
      const topCard = k.cards.length ? k.cards[k.cards.length - 1] : null;
      for (const a of ctx.legal.filter((x) => x.action.type === "scrap" && !x.action.from_hand && topCard && x.action.card === topCard.id)) {
        stakBox.appendChild(ctx.bind(h("button", { type: "button", class: "secondary" }, `Scrap ${a.action.name} from the top`), a.index, a.label));
      }
    }
  }

  const handBox = h("div", { class: "sb-hand" }, h("div", { class: "sb-label" }, mine ? "Your hand" : "Hand"));
  const cards = h("div", { class: "card-row" });
  if (s.hand) {
    for (const c of s.hand) {
      const wrap = h("div", { class: "sb-hand-card" });
      const el = card(c, { enterFrom: "stakbots:supply" });
      // A click plays the card onto your own stak (or reacts with it, or discards it); plays
      // onto other staks (borderless, traitor) and recycling are the small buttons below it.
      const plays = ctx.find({ type: "play", card: c.id });
      const own = plays.find((a) => a.action.seat < 0 && !a.action.stak);
      const main = own || ctx.find({ type: "react", card: c.id })[0] || ctx.find({ type: "discard", card: c.id })[0];
      if (main) ctx.bind(el, main.index, main.label);
      wrap.appendChild(el);
      for (const a of plays.filter((x) => x !== own)) {
        const whose = a.action.seat < 0 ? "your" : `${ctx.seatName(a.action.seat)}'s`;
        const which = (s.staks || []).length > 1 || a.action.stak ? ["first ", "second ", "third "][a.action.stak || 0] : "";
        wrap.appendChild(ctx.bind(h("button", { type: "button", class: "secondary small-button" }, `onto ${whose} ${which}stak`), a.index, a.label));
      }
      const scrap = ctx.find({ type: "scrap", card: c.id, from_hand: true })[0];
      if (scrap) wrap.appendChild(ctx.bind(h("button", { type: "button", class: "secondary small-button" }, "scrap"), scrap.index, scrap.label));
      const recycle = ctx.find({ type: "recycle", card: c.id })[0];
      if (recycle) wrap.appendChild(ctx.bind(h("button", { type: "button", class: "secondary small-button" }, "recycle"), recycle.index, recycle.label));
      cards.appendChild(wrap);
    }
  } else {
    const known = s.known_hand || [];
    for (const c of known) cards.appendChild(card(c, { small: true }));
    for (let i = known.length; i < s.hand_size; i++) cards.appendChild(card(null));
  }
  handBox.appendChild(cards);
  if (!name) row.appendChild(handBox);
  zone.appendChild(row);
  return zone;
}

function middle(view, ctx) {
  const box = h("section", { class: "zone sb-middle" });
  box.appendChild(h("h3", {}, `Turn ${view.turn}`,
    h("span", { class: "pill" }, `actions ${view.actions_this_turn}`),
    view.scrapheap_fed ? h("span", { class: "pill good" }, "scrapheap fed") : h("span", { class: "pill" }, "scrapheap not fed yet"),
    view.attacked_this_turn ? h("span", { class: "pill" }, "attacked") : null));
  const row = h("div", { class: "sb-row" });
  // The supply is where drawn cards come from (they travel from it to the hand, motion.js).
  const supply = view.supply_size ? card(null) : h("div", { class: "muted" }, "empty");
  supply.dataset.key = "stakbots:supply";
  row.appendChild(h("div", { class: "sb-pile" }, h("div", { class: "sb-label" }, `Supply (${view.supply_size})`), supply));
  row.appendChild(h("div", { class: "sb-pile" }, h("div", { class: "sb-label" }, `Scrapheap (${view.scrapheap.length})`),
    view.scrapheap_top ? card(view.scrapheap_top, { small: true }) : h("div", { class: "muted" }, "empty")));
  if (view.decision) {
    row.appendChild(h("div", { class: "sb-decision" },
      h("div", { class: "sb-label" }, `${ctx.seatName(view.decision.seat)} decides: ${view.decision.kind.replace(/_/g, " ")}`),
      card(view.decision.card, { small: true, ref: true }), h("p", {}, view.decision.why)));
  }
  if (view.pending_effects && view.pending_effects.length) {
    row.appendChild(h("div", { class: "sb-pile" }, h("div", { class: "sb-label" }, "Entry effects waiting"),
      h("div", { class: "card-row" }, view.pending_effects.map((c) => card(c, { small: true, ref: true })))));
  }
  if (view.attacker) {
    row.appendChild(h("div", { class: "sb-pile" }, h("div", { class: "sb-label" }, "Attacked with"), card(view.attacker, { small: true, ref: true })));
  }
  const through = ctx.find({ type: "let_through" })[0];
  if (through) row.appendChild(ctx.bind(h("button", { type: "button", class: "big-button" }, "Let the attack through"), through.index, through.label));
  const end = ctx.find({ type: "end_turn" })[0];
  if (end) row.appendChild(ctx.bind(h("button", { type: "button", class: "big-button" }, "End the turn"), end.index, end.label));
  box.appendChild(row);
  // How it ended, as the log's last line says it ("Bo wins: the last player with ...").
  if (view.terminal && view.prompt) box.appendChild(h("p", { class: "sb-end" }, `Game over: ${ctx.named(view.prompt)}`));
  return box;
}

export default {
  render(root, view, ctx) {
    const order = [...view.seats].sort((a, b) => {
      const rank = (s) => (s.seat === ctx.you ? 1 : 0);
      return rank(a) - rank(b) || a.seat - b.seat;
    });
    const board = h("div", { class: "sb-board" });
    const me = order.find((s) => s.seat === ctx.you);
    for (const s of order) if (s !== me) board.appendChild(seatZone(view, s, ctx));
    // Drone Mode: the automated side's staks, attacked like any opponent's.
    if (view.drone) {
      const d = view.drone;
      const first = d.staks[0] || { cards: [], size: 0 };
      board.appendChild(seatZone(view, { seat: d.seat, in_game: d.in_game, staks: d.staks, stak: first.cards, stak_size: first.size, hand_size: 0, hand: null, known_hand: [] }, ctx, "Drone"));
    }
    board.appendChild(middle(view, ctx));
    if (me) board.appendChild(seatZone(view, me, ctx));
    root.appendChild(board);
  },
};
