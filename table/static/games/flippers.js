// Flippers on the table: tap a hand card, a lit cell, then the arrow it faces; tap the next card to activate.
import { BASE_CSS, INK, MIN_TAP, button, html, style, svg } from "./kit.js";
import { CELL, STEP, clipDefs, drawCard, drawFacing, drawHandCard, drawMarker, drawOpen } from "./flippers_draw.js";

const MIN_CELL = 48; // CSS px: a cell (a whole cell answers a tap) is never drawn smaller: 8 columns fit a phone
const MAX_CELL = 150;
const REST = true; // ask the engine to activate by itself the cards whose order changes nothing

const ui = { pick: null, cell: null, discard: [], view: null, key: "", reveal: null };
let again = null;

// Draw the whole Flippers table into `root` for the seat in `ctx`.
export function render(root, table, ctx) {
  style("tb-base", BASE_CSS);
  style("fl-css", CSS);
  again = () => render(root, table, ctx);
  forget(table);
  const width = root.clientWidth || window.innerWidth;
  const height = root.clientHeight || window.innerHeight;
  const wide = width >= 760 && width > height;
  const box = html("div", `tb-root fl ${wide ? "fl-wide" : "fl-tall"}`);
  const act = (action) => {
    ui.pick = null;
    ui.cell = null;
    ui.discard = [];
    box.classList.add("tb-busy");
    ctx.send(action).catch(() => {}).finally(() => { // app.js shows a refusal in its toast
      box.classList.remove("tb-busy");
      again();
    });
  };
  const stage = html("div", "fl-stage");
  stage.dataset.stage = "1";
  if (wide) {
    const side = html("div", "fl-side", null, [prompt(table), hand(table, act), seats(table)]);
    box.append(stage, html("div", "fl-panel tb-scroll", null, [side]));
  } else box.append(html("div", "fl-top", null, [prompt(table)]), stage, hand(table, act), totals(table));
  root.replaceChildren(box);
  board(stage, table, act);
}

// Drop picks the new state no longer allows.
function forget(table) {
  const key = `${table.phase}:${table.turn}:${table.seat}`;
  if (key !== ui.key) {
    ui.pick = null;
    ui.cell = null;
    ui.discard = [];
    ui.key = key;
  }
  const card = picked(table);
  if (ui.pick && (!card || !cellsOf(table, card).length)) {
    ui.pick = null;
    ui.cell = null;
  }
  const held = new Set((table.hand || []).map((c) => c.id));
  ui.discard = ui.discard.filter((id) => held.has(id));
}

function picked(table) {
  if (ui.pick === "leader") return table.leader;
  return (table.hand || []).find((c) => c.id === ui.pick) || null;
}

// Return the cells a picked card lights: where it may go now, or, out of turn, every open cell (the server answers).
function cellsOf(table, card) {
  if (!card) return [];
  if (card.spots) return Object.keys(card.spots);
  return card.cells.length || table.actions.length ? card.cells : table.open.map((s) => s.cell);
}

function prompt(table) {
  const el = html("div", "fl-prompt");
  const card = picked(table);
  if (card) el.append(html("div", "fl-say", ui.cell ? card.arrow_prompt : card.cell_prompt));
  else if (table.last && table.last.lines.length) {
    const last = html("div", "tb-last fl-last", table.last.lines.join(" "));
    last.title = last.textContent;
    last.addEventListener("click", () => last.classList.toggle("fl-open-last"));
    el.append(last);
  }
  return el;
}

function hand(table, act) {
  const strip = html("div", "fl-hand");
  if (!table.hand) return strip;
  const cards = html("div", "fl-cards");
  const leader = table.leader;
  const list = leader ? [{ ...leader, cells: Object.keys(leader.spots), isLeader: true }] : table.hand;
  const discarding = Boolean(table.discard);
  for (const card of list) {
    const key = card.isLeader ? "leader" : card.id;
    const chosen = discarding ? ui.discard.includes(card.id) : ui.pick === key;
    const el = drawHandCard(card, 92, 104, chosen);
    const usable = discarding || cellsOf(table, card).length > 0;
    if (usable) {
      el.dataset.tap = "1";
      el.dataset.hand = card.id;
      el.classList.add("fl-usable");
      el.setAttribute("role", "button");
      el.setAttribute("aria-label", card.name);
      el.addEventListener("click", () => {
        if (discarding) {
          ui.discard = ui.discard.includes(card.id)
            ? ui.discard.filter((id) => id !== card.id) : [...ui.discard, card.id];
        } else {
          ui.pick = ui.pick === key ? null : key;
          ui.cell = null;
          const lit = new Set(cellsOf(table, card));
          if (ui.pick) ui.reveal = [...table.open, ...table.leader_cells].filter((s) => lit.has(s.cell));
        }
        again();
      });
    }
    cards.append(el);
  }
  strip.append(cards);
  const shown = picked(table) || (discarding && list.find((c) => ui.discard.includes(c.id))) || list[0];
  if (shown) strip.append(html("div", "fl-text", `${shown.power_name}: ${shown.text}`));
  const buttons = html("div", "fl-buttons");
  if (discarding) {
    const ready = ui.discard.length === table.discard.count;
    const go = button(table.discard.button, () => {
      const action = table.actions.find((a) => a.type === "discard" && a.cards.length === ui.discard.length
        && a.cards.every((id) => ui.discard.includes(id)));
      if (action) act(action);
    }, "tb-go fl-discard");
    go.disabled = !ready;
    buttons.append(go);
  }
  if (ui.pick) {
    buttons.append(button(table.text.cancel, () => {
      ui.pick = null;
      ui.cell = null;
      again();
    }));
  }
  if (buttons.childElementCount) strip.append(buttons);
  return strip;
}

function seats(table) {
  const list = html("div", "fl-seats");
  for (const seat of table.seats) {
    const last = table.last && table.last.seat === seat.seat;
    const el = html("div", `fl-seat${seat.acting ? " fl-acting" : ""}${last ? " fl-lastseat" : ""}`);
    el.dataset.seat = seat.seat;
    const badge = svg("svg", { width: 26, height: 26, viewBox: "0 0 26 26", class: "tb-chip" }, [
      svg("rect", { x: 1, y: 1, width: 24, height: 24, rx: 5, fill: seat.colour, stroke: INK, "stroke-width": 2 }),
    ]);
    const letter = svg("text", { x: 13, y: 14, "font-size": 15, "font-weight": 700, fill: seat.ink,
      "text-anchor": "middle", "dominant-baseline": "central" });
    letter.textContent = seat.letter;
    badge.append(letter);
    el.append(badge, html("span", "fl-name", `${seat.acting ? "▶ " : ""}${seat.name}`),
      html("span", "fl-points", `${seat.winner ? "★ " : ""}${seat.points}`));
    el.title = `${seat.team} · ${seat.cards}`;
    list.append(el);
  }
  list.append(totals(table));
  return list;
}

// Return the Team Up sides' points and the supply, in one line.
function totals(table) {
  const line = html("div", "fl-totals");
  for (const team of table.sides) line.append(html("span", "fl-side-total", `${team.name}: ${team.points}`));
  line.append(html("span", "fl-note", table.supply));
  return line;
}

// Return the box of cells the table shows: every cell used so far and every cell that may be tapped.
function bounds(table) {
  const cols = [table.box.min_col, table.box.max_col];
  const rows = [table.box.min_row, table.box.max_row];
  for (const spot of [...table.cards, ...table.open, ...table.leader_cells]) {
    cols.push(spot.col);
    rows.push(spot.row);
  }
  return { c0: Math.min(...cols), c1: Math.max(...cols), r0: Math.min(...rows), r1: Math.max(...rows) };
}

function board(stage, table, act) {
  const W = stage.clientWidth || 300;
  const H = stage.clientHeight || 300;
  const b = bounds(table);
  const cw = (b.c1 - b.c0 + 1) * CELL;
  const ch = (b.r1 - b.r0 + 1) * CELL;
  const fit = Math.min(W / cw, H / ch);
  const least = MIN_CELL / CELL;
  const most = MAX_CELL / CELL;
  if (!ui.view || ui.view.b !== JSON.stringify(b) || ui.view.W !== W || ui.view.H !== H) {
    // The table fits itself to the stage as it grows, until the player pans or zooms; then their view stays.
    const keep = ui.view && ui.view.manual && ui.view.W === W && ui.view.H === H;
    const scale = keep ? ui.view.s : Math.min(Math.max(fit, least), most);
    const x = keep ? ui.view.x - (ui.view.c0 - b.c0) * CELL * scale : (W - cw * scale) / 2; // same cells, same place
    const y = keep ? ui.view.y - (ui.view.r0 - b.r0) * CELL * scale : (H - ch * scale) / 2;
    ui.view = { s: scale, x, y, manual: keep, c0: b.c0, r0: b.r0, b: JSON.stringify(b), W, H };
  }
  const at = (spot) => [(spot.col - b.c0) * CELL, (spot.row - b.r0) * CELL];
  const root = svg("svg", { class: "fl-board", width: W, height: H, viewBox: `0 0 ${W} ${H}` });
  const layer = svg("g", {});
  root.append(clipDefs(), layer);
  const px = (size) => Math.max(size, 12.5 / ui.view.s);
  const card = picked(table);
  const lit = new Set(cellsOf(table, card));
  const tint = card ? `${card.colour}66` : null;
  const spots = table.phase === "leaders" ? table.leader_cells : table.open;
  for (const spot of spots) {
    const g = drawOpen(spot, ...at(spot), px, lit.has(spot.cell), tint);
    if (!lit.has(spot.cell) && table.phase === "leaders" && !table.leader) {
      g.dataset.tap = "1"; // not this viewer's Leader to place: the tap still asks, and the server answers
      g.dataset.cell = spot.cell;
      g.setAttribute("role", "button");
      g.setAttribute("aria-label", spot.cell);
      g.classList.add("fl-ask");
      g.addEventListener("click", () => act({ type: "leader", cell: spot.cell }));
    }
    if (lit.has(spot.cell)) {
      g.dataset.tap = "1";
      g.dataset.cell = spot.cell;
      g.setAttribute("role", "button");
      g.setAttribute("aria-label", spot.cell);
      g.addEventListener("click", () => {
        ui.cell = spot.cell;
        ui.reveal = [-1, 0, 1].flatMap((dx) => [-1, 0, 1].map((dy) => ({ col: spot.col + dx, row: spot.row + dy })));
        again();
      });
    }
    layer.append(g);
  }
  const lastCells = new Set(table.last ? table.last.cells : []);
  for (const spot of [...spots, ...table.cards]) {
    if (!lastCells.has(spot.cell)) continue;
    const [x, y] = at(spot);
    layer.append(svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 12, fill: "none",
      stroke: "#e69f00", "stroke-width": 6, class: "fl-lastcell" }));
  }
  const due = new Set(table.activate.map((a) => a.id));
  const watching = table.phase === "play" && !table.actions.length; // a tap still asks; the server answers
  for (const c of table.cards) {
    if (due.has(c.id)) {
      const [x, y] = at(c);
      layer.append(svg("rect", { x: x - 3, y: y - 3, width: CELL + 6, height: CELL + 6, rx: 14, fill: "#0072b2",
        class: "fl-glow" }));
    }
    const g = drawCard(c, ...at(c), px);
    if (due.has(c.id) || (watching && c.kind === "explorer")) {
      g.dataset.tap = "1";
      g.dataset.cell = c.cell;
      g.setAttribute("role", "button");
      g.setAttribute("aria-label", `${c.name} · ${c.cell}`);
      if (due.has(c.id)) g.classList.add("fl-due");
      g.addEventListener("click", () => act({ type: "activate", card: c.id, rest: REST }));
    }
    layer.append(g);
  }
  const slots = {};
  for (const m of table.markers) {
    slots[m.cell] = (slots[m.cell] || 0) + 1;
    layer.append(drawMarker(m, ...at(m), px, slots[m.cell] - 1));
  }
  if (card && ui.cell) facings(layer, table, card, at, act);
  place(layer);
  const targets = ui.reveal || table.cards.filter((c) => due.has(c.id));
  pan(root, layer, reveal(targets.map(at), W, H));
  ui.reveal = null;
  stage.append(root, zoomButtons(table, stage, W, H, fit, least, most, cw, ch));
}

// Draw the four (or, for a Leader, the allowed) facing arrows around the picked cell.
function facings(layer, table, card, at, act) {
  const spot = [...table.open, ...table.leader_cells].find((s) => s.cell === ui.cell);
  if (!spot) return;
  const [x, y] = at(spot);
  const allowed = card.spots ? card.spots[ui.cell] : ["N", "E", "S", "W"];
  layer.append(drawCard({ ...card, kind: "explorer", face: "up", facing: allowed[0], due: false, done: false,
    cell: ui.cell, arrows: [] }, x, y, (s) => Math.max(s, 12.5 / ui.view.s)));
  const r = Math.max(MIN_TAP / 2 + 2, 26 * ui.view.s) / ui.view.s;
  for (const d of allowed) {
    const [dx, dy] = STEP[d];
    const g = drawFacing(d, x + CELL / 2 + dx * CELL * 0.92, y + CELL / 2 + dy * CELL * 0.92, r, card.colour);
    g.setAttribute("aria-label", table.text.directions[d]);
    g.setAttribute("role", "button");
    g.addEventListener("click", (event) => {
      event.stopPropagation();
      act(card.spots
        ? { type: "leader", cell: ui.cell, facing: d }
        : { type: "play", card: card.id, cell: ui.cell, facing: d, rest: REST });
    });
    layer.append(g);
  }
}

// Return a view moved just enough to bring the cells at `spots` into sight (null when they all are already).
function reveal(spots, W, H) {
  if (!spots.length) return null;
  const v = ui.view;
  const xs = spots.map(([x]) => v.x + x * v.s);
  const ys = spots.map(([, y]) => v.y + y * v.s);
  const cell = CELL * v.s;
  const shift = (low, high, size) => {
    if (high - low > size) return size / 2 - (low + high) / 2; // cannot all fit: centre them
    if (low < 0) return -low;
    if (high > size) return size - high;
    return 0;
  };
  const dx = shift(Math.min(...xs), Math.max(...xs) + cell, W);
  const dy = shift(Math.min(...ys), Math.max(...ys) + cell, H);
  return dx || dy ? { x: v.x + dx, y: v.y + dy } : null;
}

function place(layer) {
  const v = ui.view;
  layer.setAttribute("transform", `translate(${v.x} ${v.y}) scale(${v.s})`);
}

// Let the board be dragged and pinched; a touch that moves is a drag, never a tap.
function pan(root, layer, moveTo) {
  if (moveTo) Object.assign(ui.view, moveTo);
  place(layer);
  const down = new Map();
  let moved = false;
  let pinch = null;
  root.addEventListener("pointerdown", (e) => {
    down.set(e.pointerId, [e.clientX, e.clientY]);
    moved = false;
    if (down.size === 2) {
      const [a, b] = [...down.values()];
      pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]), s: ui.view.s };
    }
  });
  root.addEventListener("pointermove", (e) => {
    const before = down.get(e.pointerId);
    if (!before) return;
    const dx = e.clientX - before[0];
    const dy = e.clientY - before[1];
    if (!moved && Math.hypot(dx, dy) < 8) return;
    moved = true;
    ui.view.manual = true;
    if (down.size === 1) {
      ui.view.x += dx;
      ui.view.y += dy;
    } else if (pinch) {
      down.set(e.pointerId, [e.clientX, e.clientY]);
      const [a, b] = [...down.values()];
      zoomAt(root, pinch.s * (Math.hypot(a[0] - b[0], a[1] - b[1]) / pinch.d) / ui.view.s, (a[0] + b[0]) / 2,
        (a[1] + b[1]) / 2);
    }
    down.set(e.pointerId, [e.clientX, e.clientY]);
    place(layer);
  });
  const up = (e) => {
    down.delete(e.pointerId);
    if (down.size < 2) pinch = null;
  };
  root.addEventListener("pointerup", up);
  root.addEventListener("pointercancel", up);
  root.addEventListener("click", (e) => {
    if (moved) e.stopPropagation();
  }, true);
  root.addEventListener("wheel", (e) => {
    e.preventDefault();
    ui.view.manual = true;
    zoomAt(root, e.deltaY < 0 ? 1.15 : 1 / 1.15, e.clientX, e.clientY);
    place(layer);
  }, { passive: false });
}

function zoomAt(root, factor, clientX, clientY) {
  const v = ui.view;
  const s = Math.min(Math.max(v.s * factor, MIN_CELL / CELL), MAX_CELL / CELL);
  const box = root.getBoundingClientRect();
  const px = clientX - box.left;
  const py = clientY - box.top;
  v.x = px - ((px - v.x) * s) / v.s;
  v.y = py - ((py - v.y) * s) / v.s;
  v.s = s;
}

function zoomButtons(table, stage, W, H, fit, least, most, cw, ch) {
  const bar = html("div", "fl-zoom");
  const zoom = (factor) => () => {
    ui.view.manual = true;
    zoomAt(stage.querySelector(".fl-board"), factor, stage.getBoundingClientRect().left + W / 2,
      stage.getBoundingClientRect().top + H / 2);
    again();
  };
  const whole = button("⤢", () => {
    const s = Math.min(Math.max(fit, least), most);
    Object.assign(ui.view, { s, x: (W - cw * s) / 2, y: (H - ch * s) / 2, manual: false });
    again();
  }, "fl-zbtn");
  whole.title = table.text.fit;
  const plus = button("+", zoom(1.25), "fl-zbtn");
  plus.title = table.text.zoom_in;
  const minus = button("−", zoom(0.8), "fl-zbtn");
  minus.title = table.text.zoom_out;
  bar.append(plus, minus, whole);
  return bar;
}

const CSS = `
.fl { flex-direction: column; background: #f8fafc; }
.fl-wide { flex-direction: row; }
.fl-top { flex: none; padding: 6px 8px 2px; }
.fl-stage { position: relative; flex: 1; min-height: 0; min-width: 0; overflow: hidden; touch-action: none; }
.fl-board { display: block; user-select: none; -webkit-user-select: none; }
.fl-panel { flex: none; width: 380px; padding: 12px; border-left: 1px solid #ced6e0; }
.fl-side { display: flex; flex-direction: column; gap: 10px; }
.fl-say { font-size: 15px; font-weight: 600; }
.fl-note { font-size: 13px; color: #606876; }
.fl-prompt { display: flex; flex-direction: column; gap: 4px; }
.fl-hand { flex: none; padding: 4px 8px; display: flex; flex-direction: column; gap: 4px; }
.fl-cards { display: flex; gap: 8px; }
.fl-usable { cursor: pointer; }
.fl-text { font-size: 13px; color: #3c4250; }
.fl-buttons { display: flex; gap: 8px; }
.fl-buttons .tb-go { flex: 1; }
.fl-seats { flex: none; display: flex; flex-wrap: wrap; gap: 4px 10px; padding: 4px 8px 8px; align-items: center; }
.fl-wide .fl-seats { flex-direction: column; align-items: stretch; }
.fl-seat { display: flex; align-items: center; gap: 5px; font-size: 14px; padding: 2px 6px 2px 2px;
  border-radius: 8px; border: 2px solid transparent; max-width: 100%; }
.fl-acting { border-color: ${INK}; background: #fff; }
.fl-lastseat { background: #fff8d6; }
.fl-name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; max-width: 110px; }
.fl-wide .fl-name { max-width: none; flex: 1; }
.fl-points { font-weight: 700; }
.fl-tall .fl-last { display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; overflow: hidden; }
.fl-tall .fl-last.fl-open-last { -webkit-line-clamp: unset; }
.fl-totals { flex: none; display: flex; flex-wrap: wrap; gap: 2px 12px; padding: 2px 8px 6px; align-items: baseline; }
.fl-side-total { font-size: 13px; font-weight: 700; }
.fl-zoom { position: absolute; right: 6px; top: 6px; display: flex; flex-direction: column; gap: 6px; }
.fl-zbtn { min-width: 44px; min-height: 44px; width: 44px; height: 44px; padding: 0; font-size: 20px;
  background: rgba(255,255,255,0.92); }
.fl-due { cursor: pointer; }
.fl-lit, .fl-facing { cursor: pointer; }
`;
