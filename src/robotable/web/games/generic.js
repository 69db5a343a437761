// The drawing used for a game that has no module of its own: the view's own keys as labelled
// panels (cards drawn as cards), the legal actions as buttons (left to the shell). Every game is
// fully playable with it; the per-game modules only make it nicer to look at.
import { drawValue, h, humanize } from "../ui.js";

export const STANDARD_KEYS = new Set([
  "game", "seat", "current_player", "turn", "prompt", "terminal", "returns", "legal_actions",
]);

export function panels(root, view, keys) {
  const grid = h("div", { class: "panels" });
  for (const key of keys) {
    grid.appendChild(h("section", { class: "panel view-panel", dataset: { key } },
      h("h3", {}, humanize(key)), drawValue(view[key], 1)));
  }
  root.appendChild(grid);
}

export default {
  render(root, view, ctx) {
    root.appendChild(h("p", { class: "muted" }, `Turn ${view.turn ?? "?"}`));
    const keys = Object.keys(view).filter((k) => !STANDARD_KEYS.has(k));
    panels(root, view, keys);
    void ctx;
  },
};
