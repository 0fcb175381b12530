// Shared drawing helpers for the tank and Flippers tables: SVG and HTML elements, buttons, sending a move.

export const SVG = "http://www.w3.org/2000/svg";
export const INK = "#141821";
export const PAPER = "#f8fafc";
export const MIN_TAP = 44; // CSS px: the smallest side of anything tapped
export const MIN_TEXT = 12; // CSS px: the smallest text drawn

// Create an SVG element with attributes and children.
export function svg(tag, attrs = {}, children = []) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) el.setAttribute(key, String(value));
  }
  for (const child of children) if (child) el.append(child);
  return el;
}

// Create an SVG text element centred on (x, y).
export function label(x, y, text, size, fill = INK, attrs = {}) {
  const el = svg("text", {
    x, y, "font-size": size, fill, "text-anchor": "middle", "dominant-baseline": "central", ...attrs,
  });
  el.textContent = text;
  return el;
}

// Create an HTML element with a class, text and children.
export function html(tag, cls = "", text = null, children = []) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (text !== null && text !== undefined) el.textContent = text;
  for (const child of children) if (child) el.append(child);
  return el;
}

// Create a button that runs `onTap` when tapped (at least 44 CSS px each way, from the stylesheet).
export function button(text, onTap, cls = "") {
  const el = html("button", `tb-btn ${cls}`.trim(), text);
  el.type = "button";
  el.dataset.tap = "1";
  el.addEventListener("click", (event) => {
    event.stopPropagation();
    onTap();
  });
  return el;
}

// Draw a seat chip: its colour disc with its letter, as on the channel board.
export function chip(seat, size = 28) {
  const r = size / 2;
  return svg("svg", { width: size, height: size, viewBox: `0 0 ${size} ${size}`, class: "tb-chip" }, [
    svg("circle", { cx: r, cy: r, r: r - 1.5, fill: seat.colour, stroke: INK, "stroke-width": 2 }),
    label(r, r + 0.5, seat.letter, Math.max(MIN_TEXT, Math.round(size * 0.55)), seat.ink, { "font-weight": 700 }),
  ]);
}

// Fill a text that holds {name} placeholders.
export function fill(text, vars = {}) {
  return String(text).replace(/\{(\w+)\}/g, (whole, key) => (key in vars ? String(vars[key]) : whole));
}

// Add a stylesheet to the page once.
export function style(id, css) {
  if (document.getElementById(id)) return;
  const el = document.createElement("style");
  el.id = id;
  el.textContent = css;
  document.head.append(el);
}

// Return true when two actions are the same move.
export function same(a, b) {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) return false;
  }
  return true;
}

export const BASE_CSS = `
.tb-root { position: absolute; inset: 0; overflow: hidden; display: flex; font-size: 15px; color: ${INK};
  background: #f0f3f7; font-family: inherit; }
.tb-btn { min-height: 48px; min-width: 48px; padding: 0 16px; border-radius: 10px; border: 2px solid ${INK};
  background: #fff; color: ${INK}; font-size: 16px; font-weight: 600; cursor: pointer; touch-action: manipulation; }
.tb-btn.tb-go { background: ${INK}; color: #fff; }
.tb-btn:disabled { opacity: 0.45; }
.tb-busy { pointer-events: none; }
.tb-busy .tb-btn { opacity: 0.6; }
.tb-chip { flex: none; }
.tb-scroll { overflow-y: auto; overscroll-behavior: contain; -webkit-overflow-scrolling: touch; min-height: 0; }
.tb-h { font-size: 13px; font-weight: 700; text-transform: uppercase; letter-spacing: 0.04em; color: #606876;
  margin: 12px 0 6px; }
.tb-last { font-size: 13px; color: #3c4250; background: #fff8d6; border-radius: 8px; padding: 4px 8px;
  display: -webkit-box; -webkit-line-clamp: 3; -webkit-box-orient: vertical; overflow: hidden; }
`;
