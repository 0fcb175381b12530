// 10 Gallon Tank on the table: tap a cut line to split, tap a group to take, pick Gourami discards in your aquarium.
import {
  BASE_CSS, INK, MIN_TAP, MIN_TEXT, button, chip, html, label, same, style, svg,
} from "./kit.js";

const U = 100; // a card's side in board units
const G = 22; // the gap between cards, where cut lines and group outlines sit
const WATER = "#ddecf7";
const EMPTY = "#aac4da";
const PICK = "#d55e00";
const GLOW = "#fff4c8";

const ui = { pick: null, scroll: 0 };
let again = null;

// Draw the whole tank table into `root` for the seat in `ctx`.
export function render(root, table, ctx) {
  style("tb-base", BASE_CSS);
  style("tk-css", CSS);
  again = () => render(root, table, ctx);
  if (ui.pick && !offered(table, ui.pick)) ui.pick = null;
  const width = root.clientWidth || window.innerWidth;
  const height = root.clientHeight || window.innerHeight;
  const wide = width >= 760 && width > height;
  const box = html("div", `tb-root tk ${wide ? "tk-wide" : "tk-tall"}`);
  const head = header(table);
  const bar = html("div", "tk-bar");
  const panel = html("div", "tk-panel tb-scroll");
  const side = wide ? Math.min(height - 24, width * 0.56) : Math.min(width - 8, height * 0.54);
  const act = (action) => {
    ui.pick = null;
    box.classList.add("tb-busy");
    ctx.send(action).catch(() => {}).finally(() => { // app.js shows a refusal in its toast
      box.classList.remove("tb-busy");
      again();
    });
  };
  const board = drawBoard(table, side, act);
  actionBar(bar, table, act);
  fillPanel(panel, table, act);
  if (wide) {
    box.append(html("div", "tk-left", null, [board]), html("div", "tk-right", null, [head, bar, panel]));
  } else {
    box.append(head, html("div", "tk-boardrow", null, [board]), bar, panel);
  }
  root.replaceChildren(box);
  panel.scrollTop = ui.scroll;
  panel.addEventListener("scroll", () => {
    ui.scroll = panel.scrollTop;
  });
}

function header(table) {
  const head = html("div", "tk-head");
  head.append(html("div", "tk-title", table.heading), html("div", "tk-goal", table.goal_line));
  if (table.last && table.last.lines.length) head.append(html("div", "tb-last", table.last.lines.join(" ")));
  return head;
}

// Return true when the board still offers a pick: the seat's legal move, or (out of turn) what a tap would mean.
function offered(table, pick) {
  if (table.actions.some((a) => same(a, pick))) return true;
  const group = table.groups.find((g) => g.letter === pick.group);
  if (!group) return false;
  return pick.type === "split" ? group.cuts.some((c) => c.line === pick.line) : pick.type === "take" && !!group.take;
}

// Return the top-left corner of a cell in board units.
function at(row, col) {
  return [G + col * (U + G), G + row * (U + G)];
}

// Return a group's outline box in board units: its cards and half the gap around them.
function outline(group) {
  const [x0, y0] = at(group.rows[0], group.cols[0]);
  const [x1, y1] = at(group.rows[1], group.cols[1]);
  return { x: x0 - G / 2 + 2, y: y0 - G / 2 + 2, w: x1 - x0 - 4, h: y1 - y0 - 4 };
}

// Return the segment of a cut line inside a group, in board units.
function segment(group, axis, k) {
  const box = outline(group);
  if (axis === "h") {
    const y = G / 2 + k * (U + G);
    return [box.x + 4, y, box.x + box.w - 4, y];
  }
  const x = G / 2 + k * (U + G);
  return [x, box.y + 4, x, box.y + box.h - 4];
}

function drawBoard(table, side, act) {
  const n = table.grid_size;
  const total = n * U + (n + 1) * G;
  const scale = side / total;
  const px = (size) => Math.max(size, MIN_TEXT / scale + 0.5); // text never under 12 CSS px
  const root = svg("svg", {
    class: "tk-board", width: side, height: side, viewBox: `0 0 ${total} ${total}`,
    "aria-label": table.heading,
  });
  root.append(svg("rect", { x: 0, y: 0, width: total, height: total, rx: 18, fill: WATER }));
  const groups = table.groups;
  const picked = ui.pick;
  const taking = picked && picked.type === "take" ? picked.group : null;
  for (const group of groups) {
    if (group.letter === taking) {
      const b = outline(group);
      root.append(svg("rect", { x: b.x - 4, y: b.y - 4, width: b.w + 8, height: b.h + 8, rx: 14, fill: GLOW }));
    }
  }
  table.grid.forEach((row, r) => row.forEach((card, c) => root.append(drawCard(card, ...at(r, c), px))));
  for (const group of groups) {
    const b = outline(group);
    const chosen = group.letter === taking;
    root.append(svg("rect", {
      x: b.x, y: b.y, width: b.w, height: b.h, rx: 12, fill: "none", stroke: chosen ? PICK : INK,
      "stroke-width": chosen ? 7 : 4,
    }));
    const badge = Math.max(34, px(20) * 1.5);
    root.append(svg("rect", { x: b.x - 4, y: b.y - 4, width: badge, height: badge, rx: 7, fill: INK }));
    root.append(label(b.x - 4 + badge / 2, b.y - 4 + badge / 2, group.label, px(22), "#fff", { "font-weight": 700 }));
  }
  drawLast(root, table);
  drawCuts(root, table, scale, act);
  drawTakes(root, table, scale);
  return root;
}

function drawCard(card, x, y, px) {
  if (!card) {
    return svg("rect", { x: x + 2, y: y + 2, width: U - 4, height: U - 4, rx: 10, fill: "none", stroke: EMPTY,
      "stroke-width": 4 });
  }
  const g = svg("g", { class: "tk-card", "data-card": card.id });
  g.append(svg("rect", { x, y, width: U, height: U, rx: 10, fill: card.colour, stroke: INK, "stroke-width": 3 }));
  g.append(label(x + U / 2, y + U * 0.42, card.code, px(38), card.ink, { "font-weight": 700 }));
  if (card.value !== null && card.value !== undefined) {
    g.append(svg("circle", { cx: x + U - 19, cy: y + 19, r: 16, fill: "#fff", stroke: INK, "stroke-width": 2.5 }));
    g.append(label(x + U - 19, y + 20, String(card.value), px(21), INK, { "font-weight": 700 }));
  }
  const size = px(16);
  const name = label(x + U / 2, y + U * 0.82, card.short, size, card.ink, { "font-weight": 600 });
  if (card.short.length * size * 0.58 > U - 8) {
    name.setAttribute("textLength", U - 8);
    name.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }
  g.append(svg("title", {}, [document.createTextNode(card.name)]));
  g.append(name);
  return g;
}

function drawLast(root, table) {
  const last = table.last;
  if (!last || !last.line || table.phase !== "split") return;
  const parts = table.groups.filter((g) => last.groups.includes(g.letter));
  if (parts.length !== 2) return;
  const axis = last.line[0];
  const k = Number(last.line.slice(1));
  const joined = {
    rows: [Math.min(...parts.map((g) => g.rows[0])), Math.max(...parts.map((g) => g.rows[1]))],
    cols: [Math.min(...parts.map((g) => g.cols[0])), Math.max(...parts.map((g) => g.cols[1]))],
  };
  const [x1, y1, x2, y2] = segment(joined, axis, k);
  root.append(svg("line", { x1, y1, x2, y2, stroke: "#e69f00", "stroke-width": 10, "stroke-linecap": "round",
    class: "tk-lastline" }));
}

function drawCuts(root, table, scale, act) {
  const cuts = [];
  for (const group of table.groups) {
    for (const cut of group.cuts) cuts.push({ group, cut, seg: segment(group, cut.axis, cut.at) });
  }
  if (!cuts.length) return;
  const reach = Math.max(MIN_TAP / scale, G + 8);
  for (const { group, cut, seg } of cuts) {
    const [x1, y1, x2, y2] = seg;
    const chosen = ui.pick && ui.pick.type === "split" && ui.pick.group === group.letter && ui.pick.line === cut.line;
    root.append(svg("line", {
      x1, y1, x2, y2, stroke: chosen ? PICK : INK, "stroke-width": chosen ? 9 : 4,
      "stroke-dasharray": chosen ? null : "10 9", "stroke-linecap": "round",
      opacity: chosen ? 1 : cut.legal ? 0.75 : 0.3,
    }));
  }
  // One hit strip per card the line runs along, kept clear of the strips that cross it, so no two overlap.
  const clear = (reach - G) / 2;
  for (const { group, cut } of cuts) {
    const across = cut.axis === "h" ? group.cols : group.rows;
    const line = G / 2 + cut.at * (U + G);
    for (let i = across[0]; i < across[1]; i += 1) {
      const from = G + i * (U + G) + clear;
      const long = U - 2 * clear;
      const box = cut.axis === "h"
        ? { x: from, y: line - reach / 2, width: long, height: reach }
        : { x: line - reach / 2, y: from, width: reach, height: long };
      const hit = svg("rect", {
        ...box, fill: "transparent", class: "tk-cut", "data-tap": "1", "data-line": cut.line, "data-group": group.label,
        role: "button", "aria-label": cut.label,
      });
      hit.addEventListener("click", () => {
        ui.pick = { type: "split", group: group.letter, line: cut.line };
        again();
      });
      root.append(hit);
    }
  }
}

function drawTakes(root, table) {
  for (const group of table.groups) {
    if (!group.take) continue;
    const b = outline(group);
    const hit = svg("rect", {
      x: b.x, y: b.y, width: b.w, height: b.h, fill: "transparent", class: "tk-take", "data-tap": "1",
      role: "button", "aria-label": group.take,
      "data-group": group.label,
    });
    hit.addEventListener("click", () => {
      ui.pick = { type: "take", group: group.letter };
      again();
    });
    root.append(hit);
  }
}

// Return the words of what the seat has picked but not yet confirmed.
function pickText(table) {
  const pick = ui.pick;
  if (!pick) return null;
  const group = table.groups.find((g) => g.letter === pick.group);
  if (pick.type === "split") return group && (group.cuts.find((c) => c.line === pick.line) || {}).label;
  if (pick.type === "take") return group && group.take;
  const card = table.mine && table.mine.kinds.flatMap((k) => k.cards).find((c) => c.id === pick.card);
  return card ? card.name : null;
}

function actionBar(bar, table, act) {
  const picked = pickText(table);
  if (picked) bar.append(html("div", "tk-prompt", picked));
  const buttons = html("div", "tk-buttons");
  if (picked) {
    buttons.append(button(table.text.cancel, () => {
      ui.pick = null;
      again();
    }));
    const go = button(table.text[ui.pick.type], () => act(ui.pick), "tb-go tk-confirm");
    buttons.append(go);
  }
  if (table.actions.some((a) => a.type === "keep")) {
    buttons.append(button(table.text.keep, () => act({ type: "keep" }), picked ? "tk-keep" : "tb-go tk-keep"));
  }
  if (buttons.childElementCount) bar.append(buttons);
}

function miniCard(card, size, onTap, chosen) {
  const h = Math.round(size * 1.2);
  const el = svg("svg", { width: size, height: h, viewBox: `0 0 ${U} ${U * 1.2}`, class: "tk-mini" });
  el.append(svg("rect", { x: 3, y: 3, width: U - 6, height: U * 1.2 - 6, rx: 12, fill: card.colour,
    stroke: chosen ? PICK : INK, "stroke-width": chosen ? 10 : 4 }));
  const scale = size / U;
  const px = (s) => Math.max(s, MIN_TEXT / scale + 0.5);
  el.append(label(U / 2, U * 0.5, card.code, px(40), card.ink, { "font-weight": 700 }));
  if (card.value !== null && card.value !== undefined) {
    el.append(label(U / 2, U * 0.95, String(card.value), px(26), card.ink, { "font-weight": 700 }));
  }
  el.append(svg("title", {}, [document.createTextNode(card.name)]));
  if (onTap) {
    el.dataset.tap = "1";
    el.dataset.card = card.id;
    el.classList.add("tk-pickable");
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", card.name);
    el.addEventListener("click", onTap);
  }
  return el;
}

function fillPanel(panel, table, act) {
  if (table.mine) panel.append(aquarium(table));
  panel.append(html("div", "tb-h", table.over ? table.text.aquariums : table.text.players));
  for (const seat of table.seats) panel.append(seatRow(table, seat));
  if (table.tiebreak) panel.append(html("div", "tk-note", table.tiebreak));
  panel.append(html("div", "tb-h", table.text.scoring));
  for (const rule of table.scoring) panel.append(html("div", "tk-rule", `${rule.name}: ${rule.text}`));
}

function aquarium(table) {
  const mine = table.mine;
  const box = html("section", `tk-aquarium${mine.discarding ? " tk-discarding" : ""}`);
  box.append(html("div", "tb-h", table.text.aquarium));
  for (const kind of mine.kinds) {
    if (!kind.cards.length) continue;
    const row = html("div", "tk-kind");
    const cards = html("div", "tk-cards");
    for (const card of kind.cards) {
      const chosen = ui.pick && ui.pick.type === "discard" && ui.pick.card === card.id;
      const tap = card.discard ? () => {
        ui.pick = { type: "discard", card: card.id };
        again();
      } : null;
      cards.append(miniCard(card, card.discard ? 48 : 40, tap, chosen));
    }
    const points = kind.points === null ? "?" : String(kind.points);
    row.append(cards, html("div", "tk-kindname", `${kind.name} · ${points}`));
    box.append(row);
  }
  box.append(html("div", "tk-total", mine.total));
  if (mine.note) box.append(html("div", "tk-note", mine.note));
  if (mine.discards.length) {
    box.append(html("div", "tk-note", `${table.text.discards}: ${mine.discards.map((c) => c.name).join(", ")}`));
  }
  return box;
}

function seatRow(table, seat) {
  const last = table.last && table.last.seat === seat.seat;
  const row = html("div", `tk-seat${seat.acting ? " tk-acting" : ""}${last ? " tk-lastseat" : ""}${seat.out ? " tk-out" : ""}`);
  row.dataset.seat = seat.seat;
  const top = html("div", "tk-seattop");
  top.append(chip(seat, 28), html("span", "tk-name", `${seat.acting ? "▶ " : ""}${seat.name}`));
  top.append(html("span", "tk-count", `${seat.winner ? "★ " : ""}${seat.score}`));
  if (seat.detail) top.append(html("span", "tk-note", seat.detail));
  row.append(top);
  const taken = html("div", "tk-taken");
  const cards = seat.final_cards || seat.taken; // at the end every aquarium is shown as it is
  for (const card of cards) taken.append(miniCard(card, 30, null, false));
  if (!cards.length) taken.append(html("span", "tk-note", table.text.nothing));
  row.append(taken);
  return row;
}

const CSS = `
.tk { flex-direction: column; }
.tk-wide { flex-direction: row; }
.tk-left { flex: none; display: flex; align-items: center; justify-content: center; padding: 12px; }
.tk-right { flex: 1; display: flex; flex-direction: column; min-width: 0; padding: 12px 16px 12px 4px; }
.tk-head { padding: 6px 8px 2px; display: flex; flex-direction: column; gap: 3px; }
.tk-title { font-weight: 700; font-size: 16px; }
.tk-tall .tk-title { display: none; } /* the top bar says the round and phase already; a phone needs the room */
.tk-goal { font-size: 13px; background: #fff8d6; border: 1.5px solid ${INK}; border-radius: 8px; padding: 2px 8px; }
.tk-boardrow { display: flex; justify-content: center; padding: 4px 0; flex: none; }
.tk-board { display: block; touch-action: manipulation; }
.tk-cut, .tk-take { cursor: pointer; }
.tk-bar { padding: 4px 8px; display: flex; flex-direction: column; gap: 6px; flex: none; }
.tk-prompt { font-size: 15px; font-weight: 600; }
.tk-buttons { display: flex; gap: 8px; flex-wrap: wrap; }
.tk-buttons .tk-confirm { flex: 1; }
.tk-panel { flex: 1; padding: 0 8px 12px; }
.tk-kind { display: flex; align-items: center; gap: 8px; margin: 4px 0; }
.tk-cards { display: flex; flex-wrap: wrap; gap: 4px; }
.tk-kindname { font-size: 13px; color: #3c4250; }
.tk-total { font-weight: 700; margin-top: 6px; }
.tk-note { font-size: 13px; color: #606876; margin: 2px 0; }
.tk-rule { font-size: 13px; color: #3c4250; margin: 2px 0; }
.tk-seat { background: #fff; border-radius: 10px; padding: 6px 8px; margin: 6px 0; border: 2px solid transparent; }
.tk-acting { border-color: ${INK}; }
.tk-lastseat { background: #fff8d6; }
.tk-seattop { display: flex; align-items: center; gap: 8px; }
.tk-name { flex: 1; font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.tk-count { font-size: 14px; font-weight: 700; }
.tk-taken { display: flex; flex-wrap: wrap; gap: 3px; margin-top: 4px; }
.tk-pickable { cursor: pointer; }
.tk-out { opacity: 0.55; }
.tk-discarding .tk-pickable { filter: drop-shadow(0 0 3px ${PICK}); }
`;
