// Hey, That's My Fish! on the table: hexagonal ice floes drawn in SVG at CSS-pixel size. Tap a penguin and its
// destinations light up; tap one to slide there. While placing, the free 1-fish tiles light up.
const SVG = "http://www.w3.org/2000/svg";
const ICE = ["#0b2f4a", "#dff1fb", "#bfe3f5", "#9fd3ee"]; // sea (gone), then 1, 2 and 3 fish
const LIT = "#ffe14d";
const LAST = "#ff6b6b";

let selected = null; // the tile of the penguin picked, kept across redraws of the same version
let selectedVersion = null;

function node(name, attrs = {}, parent = null) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) element.setAttribute(key, value);
  if (parent) parent.append(element);
  return element;
}

function hexPoints(cx, cy, r) {
  const points = [];
  for (let i = 0; i < 6; i++) {
    const angle = (Math.PI / 180) * (60 * i - 90);
    points.push(`${(cx + r * Math.cos(angle)).toFixed(1)},${(cy + r * Math.sin(angle)).toFixed(1)}`);
  }
  return points.join(" ");
}

function layout(root, tiles) {
  const width = root.clientWidth || 390;
  const height = root.clientHeight || 600;
  const rows = Math.max(...tiles.map((tile) => tile.row)) + 1;
  const columns = Math.max(...tiles.map((tile) => tile.x)) + 2; // doubled columns, plus half a hex each side
  const pad = 10;
  const byWidth = (width - 2 * pad) / (columns * (Math.sqrt(3) / 2));
  const byHeight = (height - 2 * pad) / (1.5 * (rows - 1) + 2);
  const r = Math.max(10, Math.min(byWidth, byHeight, 70));
  const w = Math.sqrt(3) * r;
  const boardWidth = columns * (w / 2);
  const boardHeight = (1.5 * (rows - 1) + 2) * r;
  const left = (width - boardWidth) / 2 + w / 2;
  const top = pad + Math.max(0, Math.min(r, (height - 2 * pad - boardHeight) / 2)) + r;
  const bottom = top + (rows - 1) * 1.5 * r + r;
  return { r, width, height, bottom, at: (tile) => [left + tile.x * (w / 2), top + tile.row * 1.5 * r] };
}

function fishDots(group, cx, cy, r, count) {
  const spread = r * 0.32;
  const offsets = count === 1 ? [[0, 0]] : count === 2 ? [[-spread, 0], [spread, 0]] : [[-spread, spread * 0.6], [spread, spread * 0.6], [0, -spread * 0.8]];
  for (const [dx, dy] of offsets) {
    node("ellipse", { cx: cx + dx, cy: cy + dy, rx: r * 0.17, ry: r * 0.1, fill: "#2b6f9e", "pointer-events": "none" }, group);
    node("polygon", {
      points: `${cx + dx + r * 0.14},${cy + dy} ${cx + dx + r * 0.27},${cy + dy - r * 0.08} ${cx + dx + r * 0.27},${cy + dy + r * 0.08}`,
      fill: "#2b6f9e",
      "pointer-events": "none",
    }, group);
  }
}

export function render(root, table, ctx) {
  const tiles = table.tiles.filter((tile) => tile.fish > 0);
  const view = layout(root, table.tiles);
  if (selectedVersion !== table.turn + ":" + table.phase) {
    selected = null;
    selectedVersion = table.turn + ":" + table.phase;
  }
  const penguinAt = new Map(table.penguins.map((p) => [p.tile, p.seat]));
  const moves = table.actions.filter((a) => a.type === "move");
  const places = new Set(table.actions.filter((a) => a.type === "place").map((a) => a.tile));
  const mine = table.actions.length > 0;
  if (selected && penguinAt.get(selected) === undefined) selected = null;
  const targets = new Set(selected ? moves.filter((m) => m.from === selected).map((m) => m.to) : places);
  const movable = new Set(moves.map((m) => m.from));
  const last = table.last || {};

  const svg = node("svg", { width: view.width, height: view.height, role: "img", "aria-label": table.status || "" });
  svg.style.touchAction = "manipulation";
  const floes = node("g", {}, svg);
  const marks = node("g", { "pointer-events": "none" }, svg);

  function tap(label) {
    const seat = penguinAt.get(label);
    if (mine && table.phase === "play") {
      if (targets.has(label) && selected) {
        const action = moves.find((m) => m.from === selected && m.to === label);
        selected = null;
        ctx.send(action).catch(() => {});
        root.replaceChildren();
        render(root, table, ctx);
        return;
      }
      if (seat === ctx.seat && movable.has(label)) {
        selected = selected === label ? null : label;
      } else {
        selected = null;
      }
      root.replaceChildren();
      render(root, table, ctx);
      return;
    }
    if (mine && table.phase === "placement") {
      if (places.has(label)) ctx.send({ type: "place", tile: label }).catch(() => {});
      return;
    }
    // Not this seat's turn (or a spectator): the bot is the judge, and says why nothing happens.
    if (table.phase === "placement") {
      ctx.send({ type: "place", tile: label }).catch(() => {});
    } else if (seat !== undefined) {
      selected = label;
      root.replaceChildren();
      render(root, table, ctx);
    } else if (selected) {
      const from = selected;
      selected = null;
      ctx.send({ type: "move", from, to: label }).catch(() => {});
    }
  }

  for (const tile of tiles) {
    const [cx, cy] = view.at(tile);
    const lit = targets.has(tile.label);
    const group = node("g", { class: `tile${lit ? " target" : ""}`, "data-tile": tile.label, "data-tap": "1" }, floes);
    node("polygon", {
      points: hexPoints(cx, cy, view.r * 0.97),
      fill: ICE[tile.fish] || ICE[1],
      stroke: lit ? LIT : "#6fa8c8",
      "stroke-width": lit ? Math.max(3, view.r * 0.12) : 1.5,
    }, group);
    if (!penguinAt.has(tile.label)) fishDots(group, cx, cy, view.r, tile.fish);
    const label = node("text", {
      x: cx,
      y: cy + view.r * 0.72,
      "text-anchor": "middle",
      "font-size": Math.max(12, Math.round(view.r * 0.3)),
      fill: "#35566e",
      "pointer-events": "none",
    }, group);
    label.textContent = tile.label;
    group.addEventListener("click", () => tap(tile.label));
    if (lit) {
      node("polygon", { points: hexPoints(cx, cy, view.r * 0.72), fill: LIT, "fill-opacity": 0.35, "pointer-events": "none" }, group);
    }
  }

  const byLabel = new Map(table.tiles.map((tile) => [tile.label, tile]));
  if (last.from && byLabel.has(last.from)) {
    const [fx, fy] = view.at(byLabel.get(last.from));
    node("polygon", { points: hexPoints(fx, fy, view.r * 0.8), fill: "none", stroke: LAST, "stroke-width": 2, "stroke-dasharray": "5 4", class: "last-from" }, marks);
  }
  if (last.to && byLabel.has(last.to)) {
    const [tx, ty] = view.at(byLabel.get(last.to));
    node("polygon", { points: hexPoints(tx, ty, view.r * 0.88), fill: "none", stroke: LAST, "stroke-width": 3, class: "last-to" }, marks);
    if (last.from && byLabel.has(last.from)) {
      const [fx, fy] = view.at(byLabel.get(last.from));
      node("line", { x1: fx, y1: fy, x2: tx, y2: ty, stroke: LAST, "stroke-width": 2, "stroke-opacity": 0.7 }, marks);
    }
  }

  for (const penguin of table.penguins) {
    const tile = byLabel.get(penguin.tile);
    if (!tile) continue;
    const [cx, base] = view.at(tile);
    const pr = view.r * 0.5;
    const cy = base - view.r * 0.18;
    const chosen = selected === penguin.tile;
    const group = node("g", { class: `penguin${chosen ? " selected" : ""}`, "data-penguin": penguin.tile, "data-seat": penguin.seat, "pointer-events": "none" }, marks);
    if (chosen) node("circle", { cx, cy, r: pr + 5, fill: "none", stroke: LIT, "stroke-width": 4 }, group);
    node("ellipse", { cx, cy: cy + pr * 0.1, rx: pr * 0.8, ry: pr, fill: "#1b1f2a", stroke: "#fff", "stroke-width": 1.5 }, group);
    node("ellipse", { cx, cy: cy + pr * 0.3, rx: pr * 0.5, ry: pr * 0.62, fill: "#fbfbf7" }, group);
    node("circle", { cx, cy: cy - pr * 0.2, r: Math.max(pr * 0.5, 8), fill: ctx.palette[penguin.seat % ctx.palette.length], stroke: "#1b1f2a", "stroke-width": 1 }, group);
    const letter = node("text", { x: cx, y: cy - pr * 0.2, "dominant-baseline": "central", "text-anchor": "middle", "font-size": Math.max(12, Math.round(pr * 0.55)), "font-weight": 700, fill: "#141821" }, group);
    letter.textContent = ctx.letters[penguin.seat % ctx.letters.length];
  }
  root.append(svg);
  happened(root, table, view);
}

// Under the board, where there is room (a phone held upright), say in words what just happened.
function happened(root, table, view) {
  const lines = table.happened || [];
  const room = view.height - view.bottom - 12;
  if (!lines.length || room < 40) return;
  const box = document.createElement("div");
  box.className = "happened";
  box.style.cssText = "inset:auto;position:absolute;left:12px;right:12px;overflow:hidden;" +
    "font-size:14px;line-height:1.4;color:#dbe7f0;pointer-events:none";
  box.style.top = `${Math.round(view.bottom + 12)}px`;
  box.style.maxHeight = `${Math.floor(room)}px`;
  for (const text of lines.slice(-4)) {
    const line = document.createElement("div");
    line.textContent = text;
    box.append(line);
  }
  root.append(box);
}
