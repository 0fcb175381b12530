// The table's page: handshake with Discord through the Embedded App SDK, sign in, keep a WebSocket to the bot
// open (reconnecting by itself), draw the top bar and hand the board to the game's module (games/<kind>.js).
import { DiscordSDK } from "./vendor/discord-sdk.js";

// The channel board's Okabe-Ito seat colours and letters (render/common.py).
const PALETTE = ["rgb(230,159,0)", "rgb(86,180,233)", "rgb(0,158,115)", "rgb(204,121,167)", "rgb(240,228,66)", "rgb(213,94,0)"];
const LETTERS = ["A", "B", "C", "D", "E", "F"];
const MOVE_TIMEOUT_MS = 15000;

const el = (id) => document.getElementById(id);
const table = {
  session: null,
  channel: null,
  locale: null,
  ws: null,
  state: null,
  strings: {},
  pending: new Map(),
  retries: 0,
  stopped: false,
  module: null,
  kind: null,
  nonce: 0,
};
window.iceFloeTable = table; // for the browser tests: what the page holds

function t(key, vars = {}) {
  const text = table.strings[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

function toast(message, kind = "error") {
  const box = el("toast");
  el("toast-text").textContent = message;
  box.className = kind;
  box.hidden = !message;
}

function showMessage(text) {
  const board = el("board");
  board.replaceChildren();
  const box = document.createElement("div");
  box.className = "message";
  box.textContent = text;
  board.append(box);
}

function withTimeout(promise, ms) {
  return Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), ms))]);
}

async function signIn() {
  const config = await (await fetch("/table/api/config")).json();
  const sdk = new DiscordSDK(config.client_id, { disableConsoleLogOverride: true });
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: config.client_id,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  let locale = navigator.language;
  try {
    locale = (await withTimeout(sdk.commands.userSettingsGetLocale(), 1500)).locale || locale;
  } catch (error) {
    // Not every client answers this: the browser's language will do.
  }
  table.locale = locale;
  document.documentElement.lang = locale;
  const answer = await fetch("/table/api/token", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, locale }),
  });
  const body = await answer.json();
  if (!answer.ok) throw new Error(body.message || String(answer.status));
  table.session = body.session;
  table.channel = sdk.channelId;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = new URLSearchParams({ session: table.session, channel: table.channel || "", locale: table.locale || "" });
  const ws = new WebSocket(`${scheme}://${location.host}/table/ws?${query}`);
  table.ws = ws;
  ws.onopen = () => {
    table.retries = 0;
    if (table.state) ws.send(JSON.stringify({ type: "resume", version: table.state.version }));
  };
  ws.onmessage = (event) => received(JSON.parse(event.data));
  ws.onclose = () => {
    if (table.ws !== ws) return;
    table.ws = null;
    for (const [, waiter] of table.pending) waiter.reject(t("reconnecting"));
    table.pending.clear();
    if (table.stopped) return;
    toast(t("reconnecting"), "info");
    const delay = Math.min(5000, 250 * 2 ** table.retries++);
    setTimeout(connect, delay);
  };
}

function received(message) {
  if (message.type === "state") {
    const shown = table.state;
    if (shown && shown.game_id === message.game_id && message.version < shown.version) return; // overtaken
    const reconnected = el("toast").className === "info";
    const followed = table.state !== null && table.state.game_id !== message.game_id;
    table.state = message;
    table.strings = message.strings || {};
    if (followed) {
      // The game shown ended and the next one in this channel (a rematch) started: the table moved to it.
      toast(t("new_game"), "info");
    } else if (reconnected) toast("");
    draw();
  } else if (message.type === "ack") {
    const waiter = table.pending.get(message.id);
    table.pending.delete(message.id);
    if (waiter) waiter.resolve(message);
  } else if (message.type === "error") {
    if (message.fatal) {
      table.stopped = true;
      showMessage(message.message);
      return;
    }
    const waiter = table.pending.get(message.id);
    table.pending.delete(message.id);
    if (waiter) waiter.reject(message.message);
    else if (message.message) toast(message.message);
  }
}

function send(action) {
  const ws = table.ws;
  if (!ws || ws.readyState !== WebSocket.OPEN || !table.state) return Promise.reject(t("reconnecting"));
  const id = `m${Date.now().toString(36)}${(table.nonce++).toString(36)}`;
  const promise = new Promise((resolve, reject) => {
    table.pending.set(id, { resolve, reject });
    setTimeout(() => {
      if (table.pending.delete(id)) reject(t("reconnecting"));
    }, MOVE_TIMEOUT_MS);
  });
  ws.send(JSON.stringify({ type: "move", version: table.state.version, action, id }));
  promise.catch((message) => toast(message));
  return promise;
}

function drawBar(state) {
  const view = state.table;
  el("status").textContent = view.status || "";
  el("toast-close").setAttribute("aria-label", t("dismiss"));
  el("prompt").textContent = view.prompt || (state.seat === null ? t("spectator") : "");
  const acting = new Set(view.to_act || []);
  const items = (view.seats || []).map((seat, index) => {
    const number = seat.seat ?? index;
    const li = document.createElement("li");
    li.className = `${acting.has(number) ? "acting" : ""} ${seat.out ? "out" : ""}`.trim();
    li.dataset.seat = number;
    const chip = document.createElement("span");
    chip.className = "chip";
    chip.style.background = PALETTE[number % PALETTE.length];
    chip.textContent = LETTERS[number % LETTERS.length];
    const name = document.createElement("span");
    name.className = number === state.seat ? "me" : "";
    name.textContent = `${seat.winner ? "🏆 " : ""}${seat.name}`;
    const score = document.createElement("span");
    score.textContent = [seat.score, seat.detail].filter(Boolean).join(" · ");
    li.append(chip, name, score);
    return li;
  });
  el("seats").replaceChildren(...items);
}

async function draw() {
  const state = table.state;
  if (!state) return;
  drawBar(state);
  if (table.kind !== state.kind) {
    table.module = await import(`./games/${state.kind}.js`);
    table.kind = state.kind;
  }
  const root = el("board");
  root.replaceChildren();
  const ctx = { seat: state.seat, send, t, palette: PALETTE, letters: LETTERS, strings: table.strings };
  table.module.render(root, state.table, ctx);
  root.dataset.version = String(state.version); // the version the board shows, once it is drawn
}

async function boot() {
  el("toast-close").addEventListener("click", () => toast(""));
  window.addEventListener("resize", () => draw());
  try {
    await signIn();
  } catch (error) {
    table.stopped = true;
    showMessage(String(error.message || error));
    return;
  }
  connect();
}

boot();
