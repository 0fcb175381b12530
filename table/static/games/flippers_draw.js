// Draw Flippers pieces in SVG as the channel board does: Explorers, Food cards, Block markers, open cells.
import { INK, PAPER, label, svg } from "./kit.js";

export const CELL = 84; // a cell's side in board units, as in the channel picture
const INSET = 5;
const CARD = CELL - 2 * INSET;
const BACK = "#404858";
const STRIPE = "#545c6c";
const TAB_DOWN = "#969eac";
const OPEN = "#ced6e0";
const FAINT = "#707a8a";
const STEP = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
const TURN = { N: 0, E: 90, S: 180, W: 270 };
const ORDER = ["N", "E", "S", "W"];
const TURNS_WITH_CARD = { bump: "E", switch: "N", replace: "N", turn: "N" };

export function rotate(direction, quarters) {
  return ORDER[(ORDER.indexOf(direction) + quarters + 4) % 4];
}

// Return the arrowhead on the card edge facing `direction`, in cell units from the cell's top-left corner.
function arrow(direction, fill, half = 15, depth = 15) {
  const [dx, dy] = STEP[direction];
  const mx = CELL / 2 + (dx * CARD) / 2;
  const my = CELL / 2 + (dy * CARD) / 2;
  const shape = [[-depth, -half], [INSET - 2, 0], [-depth, half]];
  const points = shape.map(([a, b]) => `${mx + a * dx - b * dy},${my + a * dy + b * dx}`).join(" ");
  return svg("polygon", { points, fill, stroke: PAPER, "stroke-width": 2 });
}

// Draw one table card (Explorer or Food) in a cell whose top-left corner is (x, y); `px` floors text sizes.
export function drawCard(card, x, y, px) {
  const g = svg("g", { transform: `translate(${x} ${y})`, class: "fl-card", "data-card": card.id });
  g.append(svg("rect", { width: CELL, height: CELL, fill: "transparent" })); // the whole cell answers a tap
  if (card.due) g.append(svg("rect", { x: 1, y: 1, width: CELL - 2, height: CELL - 2, rx: 11, fill: INK }));
  const box = { x: INSET, y: INSET, width: CARD, height: CARD, rx: 8 };
  if (card.kind === "food") {
    g.append(svg("rect", { ...box, fill: card.colour, stroke: card.ink, "stroke-width": 3 }));
    for (const a of card.arrows) g.append(...foodArrow(a, card.ink, px));
    g.append(label(CELL / 2, CELL / 2, card.face, px(30), card.ink, { "font-weight": 700 }));
  } else if (card.face === "down") {
    g.append(svg("rect", { ...box, fill: BACK }));
    const stripes = svg("g", { "clip-path": "url(#fl-clip)" });
    g.append(stripes);
    for (let k = -CARD; k < CARD; k += 12) {
      stripes.append(svg("line", { x1: INSET + 6 + k, y1: CELL - INSET - 6, x2: INSET + 6 + k + CARD,
        y2: CELL - INSET - 6 - CARD, stroke: STRIPE, "stroke-width": 4 }));
    }
    g.append(svg("rect", { ...box, fill: "none", stroke: card.colour, "stroke-width": 5 }));
    g.append(label(CELL / 2, CELL / 2, card.letter, px(32), card.colour, { "font-weight": 700 }));
    g.append(arrow(card.facing, TAB_DOWN));
  } else {
    g.append(svg("rect", { ...box, fill: card.colour, stroke: INK, "stroke-width": 2 }));
    const corner = { N: [20, CELL - 20], E: [20, 20], S: [20, 20], W: [CELL - 20, 20] }[card.facing];
    g.append(label(corner[0], corner[1], card.letter, px(22), card.ink, { "font-weight": 700 }));
    const icon = label(CELL / 2, CELL / 2 + 1, card.icon, px(card.icon.length > 1 ? 30 : 36), card.ink,
      { "font-weight": 700 });
    const axis = TURNS_WITH_CARD[card.power];
    if (axis) {
      const turn = (TURN[card.facing] - TURN[axis] + 360) % 360;
      icon.setAttribute("transform", `rotate(${turn} ${CELL / 2} ${CELL / 2})`);
    }
    g.append(icon);
    for (const quarter of card.power === "switch" ? [-1, 1] : [0]) g.append(arrow(rotate(card.facing, quarter), INK));
  }
  if (card.done) g.append(...checkBadge());
  g.append(svg("title", {}, [document.createTextNode(`${card.name} · ${card.cell}`)]));
  return g;
}

function foodArrow(a, ink, px) {
  const [dx, dy] = STEP[a.dir];
  const [sx, sy] = STEP[rotate(a.dir, 1)];
  const shift = 19;
  const mx = CELL / 2 + (dx * CARD) / 2 + sx * shift;
  const my = CELL / 2 + (dy * CARD) / 2 + sy * shift;
  const shape = [[-4, -13], [0, -13], [INSET, 0], [0, 13], [-4, 13]];
  const points = shape.map(([p, q]) => `${mx + p * dx - q * dy},${my + p * dy + q * dx}`).join(" ");
  const reach = CARD / 2 - 14;
  const tx = CELL / 2 + dx * reach + sx * shift;
  const ty = CELL / 2 + dy * reach + sy * shift;
  return [
    svg("polygon", { points, fill: ink, stroke: PAPER, "stroke-width": 1 }),
    label(tx, ty, String(a.points), px(24), INK, { "font-weight": 700 }),
  ];
}

function checkBadge() {
  const x1 = CELL - INSET - 2;
  const y1 = CELL - INSET - 2;
  return [
    svg("circle", { cx: x1 - 12, cy: y1 - 12, r: 12, fill: INK, stroke: PAPER, "stroke-width": 2 }),
    svg("polyline", { points: `${x1 - 18},${y1 - 12} ${x1 - 13},${y1 - 6} ${x1 - 5},${y1 - 18}`, fill: "none",
      stroke: PAPER, "stroke-width": 4 }),
  ];
}

// Return the clip path face-down cards draw their stripes through (once per board).
export function clipDefs() {
  return svg("defs", {}, [
    svg("clipPath", { id: "fl-clip" }, [svg("rect", { x: INSET, y: INSET, width: CARD, height: CARD, rx: 8 })]),
  ]);
}

// Draw a team's Block marker: an octagon in its colour with its letter, in the cell's top-left corner.
export function drawMarker(marker, x, y, px, slot = 0) {
  const r = 19;
  const cx = x + INSET + r + slot * (r + 6);
  const cy = y + INSET + r;
  const k = r * 0.42;
  const pts = [[-k, -r], [k, -r], [r, -k], [r, k], [k, r], [-k, r], [-r, k], [-r, -k]];
  return svg("g", { class: "fl-marker" }, [
    svg("polygon", { points: pts.map(([a, b]) => `${cx + a},${cy + b}`).join(" "), fill: marker.colour,
      stroke: INK, "stroke-width": 3 }),
    label(cx, cy + 1, marker.letter, px(22), marker.ink, { "font-weight": 700 }),
  ]);
}

// Draw an empty cell: faint frame and label, or lit (a place the seat may tap) in `tint`.
export function drawOpen(spot, x, y, px, lit, tint = null) {
  const g = svg("g", { transform: `translate(${x} ${y})`, class: lit ? "fl-lit" : "fl-open" });
  g.append(svg("rect", { width: CELL, height: CELL, fill: "transparent" })); // the whole cell answers a tap
  g.append(svg("rect", {
    x: INSET, y: INSET, width: CARD, height: CARD, rx: 8, fill: lit ? tint || "#fff4c8" : "none",
    stroke: lit ? INK : OPEN, "stroke-width": lit ? 3 : 2, "stroke-dasharray": lit ? "8 5" : null,
  }));
  g.append(label(CELL / 2, CELL / 2, spot.cell, px(20), lit ? INK : FAINT, { "font-weight": lit ? 700 : 400 }));
  return g;
}

// Draw a hand card: the seat's colour, letter, power icon and name.
export function drawHandCard(card, w, h, chosen) {
  const el = svg("svg", { width: w, height: h, viewBox: `0 0 100 ${(100 * h) / w}`, class: "fl-handcard" });
  const H = (100 * h) / w;
  el.append(svg("rect", { x: 3, y: 3, width: 94, height: H - 6, rx: 10, fill: card.colour,
    stroke: chosen ? "#0072b2" : INK, "stroke-width": chosen ? 8 : 3 }));
  const unit = w / 100;
  const px = (s) => Math.max(s, 12.5 / unit);
  el.append(label(16, 18, card.letter, px(20), card.ink, { "font-weight": 700 }));
  el.append(label(50, H * 0.45, card.icon, px(card.icon.length > 1 ? 32 : 38), card.ink, { "font-weight": 700 }));
  const name = label(50, H - 18, card.power_name, px(17), card.ink, { "font-weight": 700 });
  if (card.power_name.length * px(17) * 0.6 > 88) {
    name.setAttribute("textLength", 88);
    name.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }
  el.append(name);
  return el;
}

// Draw a facing arrow button centred on (cx, cy), pointing `direction`, radius `r` units.
export function drawFacing(direction, cx, cy, r, colour) {
  const turn = TURN[direction];
  const tri = `${cx},${cy - r * 0.62} ${cx + r * 0.5},${cy + r * 0.32} ${cx - r * 0.5},${cy + r * 0.32}`;
  return svg("g", { class: "fl-facing", "data-facing": direction, "data-tap": "1" }, [
    svg("circle", { cx, cy, r, fill: "#fff", stroke: INK, "stroke-width": 4 }),
    svg("polygon", { points: tri, fill: colour, stroke: INK, "stroke-width": 3,
      transform: `rotate(${turn} ${cx} ${cy})` }),
  ]);
}

export { STEP };
