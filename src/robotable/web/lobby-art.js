// The lobby's picture of each game: a small scene drawn in code with the table's own robots
// (art.js), so a game's box in the lobby looks like the game at the table. Original art only;
// nothing is fetched and no markup is parsed.
import { PALETTES, icon, robotParts, s } from "./art.js";

const INK = "#2d2520";
const LINE = { stroke: INK, "stroke-width": 2.2, "stroke-linejoin": "round", "stroke-linecap": "round" };

// A robot from a seed, standing with its feet at (x, y), k times its drawn size (100 high).
function robot(game, seed, x, y, k, might = 4, flip = false) {
  const pal = PALETTES[game] || PALETTES.stakbots;
  const { g } = robotParts(seed, pal, might);
  const turn = flip ? ` translate(100 0) scale(-1 1)` : "";
  return s("g", { transform: `translate(${x - 50 * k} ${y - 94 * k}) scale(${k})${turn}` }, g);
}

// One of art.js's icons placed in the scene at (x, y), size px wide.
function token(kind, x, y, size) {
  const svg = icon(kind);
  svg.setAttribute("x", x);
  svg.setAttribute("y", y);
  svg.setAttribute("width", size);
  svg.setAttribute("height", size);
  return svg;
}

// A pile of cards seen from the side, top at (x, y).
function pile(x, y, n, colour) {
  const g = s("g", {});
  for (let i = n - 1; i >= 0; i--) {
    g.appendChild(s("rect", { x: x - 22 + (i % 2), y: y + i * 5, width: 44, height: 8, rx: 2, fill: i === 0 ? "#fffdf7" : colour, ...LINE, "stroke-width": 1.6 }));
  }
  return g;
}

// A fan of card backs held up, centre (x, y).
function fan(x, y, colour) {
  const g = s("g", {});
  [-18, 0, 18].forEach((angle, i) => {
    g.appendChild(s("rect", { x: x - 9, y: y - 14, width: 18, height: 26, rx: 3, fill: i === 1 ? "#fffdf7" : colour, ...LINE, "stroke-width": 1.6, transform: `rotate(${angle} ${x} ${y + 14})` }));
  });
  return g;
}

function spark(x, y, k = 1) {
  return s("path", { d: `M${x} ${y - 14 * k} L${x - 6 * k} ${y} H${x + 1 * k} L${x - 4 * k} ${y + 13 * k} L${x + 9 * k} ${y - 3 * k} H${x + 2 * k} L${x + 6 * k} ${y - 14 * k} Z`, fill: "#ffd166", ...LINE, "stroke-width": 1.8 });
}

function ground(pal, back) {
  return [
    s("rect", { x: 0, y: 0, width: 240, height: 130, fill: back }),
    s("circle", { cx: 200, cy: 26, r: 34, fill: "rgba(255,255,255,0.45)" }),
    s("circle", { cx: 30, cy: 110, r: 46, fill: "rgba(255,255,255,0.3)" }),
    s("path", { d: "M0 112 Q120 100 240 112 V130 H0 Z", fill: "rgba(45,37,32,0.1)" }),
  ];
}

const SCENES = {
  // Two staks face to face, top card against top card.
  stakbots: (pal) => [
    ...ground(pal, pal.back[0]),
    pile(78, 84, 5, "#5b8fb9"), pile(162, 84, 5, "#e07a5f"),
    robot("stakbots", "Shot Bot", 78, 86, 0.6, 6),
    robot("stakbots", "Tri Bot", 162, 86, 0.6, 3, true),
    spark(120, 40, 1.2),
  ],
  // A dice bot beside its field, loaves for the bakery.
  breadwinner: (pal) => [
    ...ground(pal, pal.back[1]),
    ...[0, 1, 2, 3].map((i) => s("path", { d: `M96 ${86 + i * 7} Q160 ${82 + i * 7} 236 ${88 + i * 7}`, fill: "none", stroke: "#8fb464", "stroke-width": 5, "stroke-linecap": "round" })),
    token("crop", 146, 48, 28), token("crop", 180, 62, 24),
    robot("breadwinner", "Harvester", 100, 110, 0.72, 5),
    token("loaf", 128, 90, 26), token("loaf", 196, 20, 24), token("factory", 24, 14, 30),
  ],
  // Two duelists with their hands up, mana and Life Points between them.
  iotabots: (pal) => [
    ...ground(pal, pal.back[0]),
    robot("iotabots", "Sneaky Bot", 78, 110, 0.62, 7),
    robot("iotabots", "Wall Bot", 164, 110, 0.62, 4, true),
    fan(121, 30, "#6d5bd0"),
    token("mana", 110, 66, 22), token("life", 190, 14, 22), token("mana", 132, 80, 16),
  ],
  // A crew at the auction: Bitz in the air and the next mission's flag.
  betabotz: (pal) => [
    ...ground(pal, pal.back[0]),
    robot("betabotz", "Beta Bolt", 66, 112, 0.52, 3),
    robot("betabotz", "Beta Spanner", 120, 112, 0.66, 6),
    robot("betabotz", "Beta Relay", 174, 112, 0.52, 4, true),
    token("bitz", 82, 12, 22), token("bitz", 146, 8, 20), token("bitz", 96, 40, 16),
    token("mission", 196, 14, 30),
  ],
  // The Champion under its crown, crystals at stake, a challenger's gear.
  rumblebots: (pal) => [
    ...ground(pal, pal.back[1]),
    robot("rumblebots", "Champion Crusher", 104, 112, 0.76, 9),
    token("champion", 89, 0, 30),
    robot("rumblebots", "Scrap Pup", 170, 112, 0.52, 3, true),
    token("crystal", 130, 74, 22), token("crystal", 146, 88, 16), token("scrap", 196, 16, 24),
  ],
};

// The picture for a game's box; a game without its own scene gets two of its robots.
export function gamePicture(game) {
  const pal = PALETTES[game] || PALETTES.stakbots;
  const scene = SCENES[game] || ((p) => [
    ...ground(p, p.back[0]),
    robot(game, `${game} one`, 84, 110, 0.62, 5),
    robot(game, `${game} two`, 156, 110, 0.62, 3, true),
  ]);
  const svg = s("svg", { viewBox: "0 0 240 130", class: "game-picture", "aria-hidden": "true", focusable: "false", preserveAspectRatio: "xMidYMid slice" }, scene(pal));
  svg.dataset.art = game;
  return svg;
}
