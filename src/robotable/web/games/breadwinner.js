// Bread Winner: the map laid out from each player's Delivery tile, bots as dice on their tiles,
// crop chips, BotFactories and the roll. Select a bot (its die), then click a highlighted tile to
// move or deploy it there; its other choices (abilities, hold, deactivate) appear beside the map.
import { h, pressable } from "../ui.js";
import { dieArt, icon, pipFace, tileArt, tokenPill } from "../art.js";

const BOT_KINDS = new Set(["move", "deploy", "act", "hold", "deactivate"]);
let selected = null; // the die id of the selected bot, kept between frames

function layers(view) {
  // Breadth-first from the first seat's Delivery tile: rows of tiles at equal distance.
  const start = (view.seats[0] && view.seats[0].delivery) || view.tiles[0].id;
  const depth = { [start]: 0 };
  const queue = [start];
  while (queue.length) {
    const tile = queue.shift();
    for (const next of view.adjacency[tile] || []) {
      if (!(next in depth)) {
        depth[next] = depth[tile] + 1;
        queue.push(next);
      }
    }
  }
  const rows = [];
  for (const tile of view.tiles) {
    const d = depth[tile.id] ?? 0;
    (rows[d] = rows[d] || []).push(tile);
  }
  return rows.filter(Boolean);
}

function die(bot, view, ctx, actions, rerender) {
  const classes = ["bw-die", `owner-${bot.owner}`];
  if (bot.used) classes.push("used");
  if (selected === bot.id) classes.push("selected");
  const mine = actions.filter((a) => a.action.die === bot.id);
  if (mine.length) classes.push("selectable");
  const carrying = bot.carrying !== null && bot.carrying !== undefined;
  const el = h("div", {
    class: classes.join(" "),
    title: `${bot.name}: ${bot.type} (face ${bot.face})${carrying ? `, carrying ${bot.carrying}` : ""}`,
    "aria-label": `${bot.type} bot ${bot.name}, face ${bot.face}${carrying ? `, carrying a crop of ${bot.carrying}` : ""}`,
    // The die's identity: it travels from factory to tile to tile (motion.js).
    dataset: { die: bot.id, key: `breadwinner:die:${bot.id}` },
  },
  dieArt(bot),
  h("div", { class: "bw-name" }, bot.name),
  h("div", { class: "bw-type" }, bot.type),
  carrying ? h("div", { class: "bw-carry", title: `carrying a crop of ${bot.carrying}` }, icon("crop"), String(bot.carrying)) : null);
  if (mine.length) {
    // A die with choices is a control: clicked, tapped or pressed with Enter/Space it selects
    // the bot, and the tiles it may go to become controls in turn.
    pressable(el, () => {
      selected = bot.id;
      rerender();
      const again = document.querySelector(`[data-die="${CSS.escape(String(bot.id))}"]`);
      if (again) again.focus();
    }, `${bot.name}, ${bot.type}, face ${bot.face}: select to see its choices`);
    el.setAttribute("aria-pressed", String(selected === bot.id));
  }
  return el;
}

function tileBox(tile, view, ctx, actions, rerender) {
  const owner = tile.owner === null || tile.owner === undefined ? "" : ` owner-${tile.owner}`;
  const crop = tile.crop !== null && tile.crop !== undefined
    ? (typeof tile.crop === "object" ? tile.crop.value ?? "?" : tile.crop) : null;
  const box = h("div", { class: `bw-tile ${tile.kind}${owner}${tile.poisoned ? " poisoned" : ""}`, dataset: { tile: tile.id } },
    tileArt(tile),
    // A Delivery tile by its owner, as the log names it ("Bo's Delivery tile"); Land by its map name.
    h("div", { class: "bw-tile-name" }, tile.kind === "delivery" && owner ? (tile.owner === ctx.you ? "Your Delivery" : `${ctx.seatName(tile.owner)}'s Delivery`) : tile.id),
    crop !== null
      ? h("div", { class: "bw-crop", title: "crop chip", "aria-label": `crop chip ${crop}` }, icon("crop"), h("b", {}, String(crop)))
      : null,
    tile.poisoned ? h("div", { class: "bw-poison" }, icon("poison"), "poisoned") : null,
    h("div", { class: "bw-dice" }, (tile.bots || []).map((b) => die(b, view, ctx, actions, rerender))));
  if (selected !== null) {
    const here = actions.find((a) => a.action.die === selected && (a.action.type === "move" || a.action.type === "deploy") && a.action.to === tile.id);
    if (here) ctx.bind(box, here.index, here.label);
  }
  return box;
}

function factories(seat, view, ctx, actions, rerender) {
  return h("div", { class: "bw-factories" }, seat.factories.map((f) => {
    const slot = h("div", { class: "bw-factory" }, h("div", { class: "sb-label" }, icon("factory"), `Factory ${f.number}`));
    if (f.bot) slot.appendChild(die(f.bot, view, ctx, actions, rerender));
    for (const a of ctx.legal) {
      if ((a.action.type === "build" || a.action.type === "research") && a.action.factory === f.number && seat.seat === ctx.you) {
        const text = a.action.type === "build" ? `build ${a.action.bot}` : `R&D: ${a.action.bot}`;
        slot.appendChild(ctx.bind(h("button", { type: "button", class: "small-button" }, text), a.index, a.label));
      }
    }
    return slot;
  }));
}

// A number whose change floats over it (motion.js): "+3" loaves.
function counted(el, key, value) {
  el.dataset.count = key;
  el.dataset.value = String(value);
  return el;
}

// The roll to build from, as dice: each shows its face, and tumbles when it is new (motion.js).
// A roll is a turn's: every die of a new turn's roll is new, however the last one fell.
function rollDice(view) {
  const faces = new Map((view.bot_types || []).map((b) => [b.name, b.face]));
  return Object.entries(view.roll || {}).filter(([, n]) => n > 0).map(([type, n]) => {
    const face = faces.get(type) || 1;
    const dice = [];
    for (let k = 0; k < n; k++) {
      dice.push(h("span", { class: "bw-roll-die", dataset: { roll: `${view.turn}:${type}:${k}`, face: String(face) } }, pipFace(face)));
    }
    return h("span", { class: "pill big bw-roll-group", title: `${n} × ${type}` }, dice, ` ${n} × ${type}`);
  });
}

function draw(root, view, ctx) {
  const actions = ctx.legal.filter((a) => BOT_KINDS.has(a.action.type));
  // Keep the selection if that bot still has choices, else select the first bot that has some.
  if (!actions.some((a) => a.action.die === selected)) selected = actions.length ? actions[0].action.die : null;
  for (const a of actions) ctx.claim(a.index);
  const rerender = () => {
    root.textContent = "";
    draw(root, view, ctx);
  };

  const board = h("div", { class: "bw-board" });
  const map = h("div", { class: "bw-map" });
  for (const row of layers(view)) map.appendChild(h("div", { class: "bw-row" }, row.map((t) => tileBox(t, view, ctx, actions, rerender))));

  const info = h("div", { class: "bw-info" });
  info.appendChild(h("div", { class: "zone" }, h("h3", {}, `Turn ${view.turn}`, h("span", { class: "pill" }, `phase ${view.phase}`)),
    h("div", { class: "sb-label" }, "Roll"),
    h("div", { class: "bw-roll" }, rollDice(view)),
    h("p", { class: "bw-supply" }, counted(tokenPill("loaf", `${view.loaves_centre} loaves in the centre`), "loaves:centre", view.loaves_centre),
      tokenPill("crop", `crop pile ${view.crop_pile}`), tokenPill("poison", `poison ${view.poison_supply}`))));

  if (selected !== null) {
    const mine = actions.filter((a) => a.action.die === selected);
    const panel = h("div", { class: "zone bw-selected" }, h("h3", {}, "Selected bot"),
      h("p", { class: "muted" }, "Click a highlighted tile to move or deploy it, or choose:"));
    for (const a of mine) {
      panel.appendChild(ctx.bind(h("button", { type: "button", class: "action-button" }, a.label), a.index, a.label));
    }
    info.appendChild(panel);
  }

  for (const seat of view.seats) {
    const zone = h("div", { class: `zone seat-color-${seat.seat}${seat.seat === ctx.you ? " mine" : ""}` },
      h("h3", {}, ctx.seatName(seat.seat),
        counted(tokenPill("loaf", `${seat.loaves} loaves`, "big"), `loaves:${seat.seat}`, seat.loaves),
        h("span", { class: "pill" }, `${seat.pile} ${seat.pile === 1 ? "die" : "dice"} in the pile`)),
      factories(seat, view, ctx, actions, rerender));
    info.appendChild(zone);
  }
  board.appendChild(map);
  board.appendChild(info);
  root.appendChild(board);
  // How it ended, in the prompt's words ("the game is over: a draw at the turn limit").
  if (view.terminal && view.prompt) root.appendChild(h("p", { class: "sb-end" }, ctx.named(view.prompt.charAt(0).toUpperCase() + view.prompt.slice(1))));
}

export default {
  render: draw,
};
