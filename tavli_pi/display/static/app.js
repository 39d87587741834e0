// The table page: draws what the referee decided; sends decisions with the table PIN.
"use strict";
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const CSRF = document.querySelector('meta[name="tavli-csrf"]').content;
let lastSeq = -1;

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  parent.appendChild(e);
  return e;
}

// The drawing: White sits at the bottom, White's home board bottom-right,
// White's point p (1-24) -> column 0-11 from the left and row (top or bottom).
const W = 1400, H = 1000, M = 40, BAR = 80, OFFW = 90;
const FIELD_W = W - 2 * M - OFFW, COL_W = (FIELD_W - BAR) / 12, R = Math.min(COL_W / 2 - 3, 38);
const colX = (c) => M + c * COL_W + (c >= 6 ? BAR : 0);
const BAR_X = M + 6 * COL_W + BAR / 2;
const HALF_CENTRE = { left: M + 3 * COL_W, right: M + 6 * COL_W + BAR + 3 * COL_W };

function pointSlot(p) {
  if (p <= 12) return { col: 12 - p, bottom: true };
  return { col: p - 13, bottom: false };
}

// Centre of the i-th checker (0 = at the edge) on White's point p.
function checkerAt(p, i) {
  const { col, bottom } = pointSlot(p);
  const x = colX(col) + COL_W / 2;
  const k = Math.min(i, 4);
  return { x, y: bottom ? H - M - R - 2 - k * 2 * R : M + R + 2 + k * 2 * R };
}

// Where a side's checkers on the bar are drawn: White's below the middle, Black's above.
const barSpot = (side) => ({ x: BAR_X, y: side === "white" ? H / 2 + 110 : H / 2 - 110 });

function drawDie(svg, x, y, value, side) {
  const S = 70, g = el("g", { class: `die ${side}`, "data-value": value }, svg);
  const dark = side === "black";
  el("rect", { x: x - S / 2, y: y - S / 2, width: S, height: S, rx: 12, fill: dark ? "#202020" : "#fbfbf6",
    stroke: dark ? "#bbb" : "#333", "stroke-width": 3 }, g);
  const o = S * 0.27;
  const pips = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
    5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] }[value] || [];
  for (const [dx, dy] of pips) el("circle", { cx: x + dx * o, cy: y + dy * o, r: 7, fill: dark ? "#f4f4f4" : "#111" }, g);
}

function drawCube(svg, cube) {
  const S = 64;
  let y = H / 2;
  if (cube.owner === "white") y = H - M - S / 2 - 6;
  if (cube.owner === "black") y = M + S / 2 + 6;
  const g = el("g", { id: "cube-drawn", "data-owner": cube.owner || "centre", "data-face": cube.face }, svg);
  el("rect", { x: BAR_X - S / 2, y: y - S / 2, width: S, height: S, rx: 8, fill: "#f2efe2", stroke: "#111", "stroke-width": 3 }, g);
  const t = el("text", { x: BAR_X, y: y + 13, "text-anchor": "middle", "font-size": 36, "font-weight": 700, fill: "#111" }, g);
  t.textContent = String(cube.face);
}

function drawBoard(v) {
  const svg = $("board");
  svg.replaceChildren();
  el("rect", { x: 0, y: 0, width: W, height: H, fill: "#3b2414" }, svg);
  el("rect", { x: M, y: M, width: FIELD_W, height: H - 2 * M, fill: "#efe3c4" }, svg);
  el("rect", { x: M + 6 * COL_W, y: M, width: BAR, height: H - 2 * M, fill: "#3b2414" }, svg);
  const wrong = new Set(v.wrong_points || []);
  const last = v.last_play;
  const lastTo = new Map(), lastFrom = new Map();
  if (last) {
    for (const p of last.to) lastTo.set(p, (lastTo.get(p) || 0) + 1);
    for (const p of last.from) lastFrom.set(p, (lastFrom.get(p) || 0) + 1);
  }
  const colourOf = (side) => (side === "white" ? "#f7f7f2" : "#151515");
  for (let p = 1; p <= 24; p++) {
    const { col, bottom } = pointSlot(p);
    const x = colX(col), base = bottom ? H - M : M, tip = bottom ? H / 2 + 40 : H / 2 - 40;
    const fill = wrong.has(p) ? "#ffd400" : (col % 2 === 0 ? "#b3262c" : "#222");
    const attrs = { points: `${x},${base} ${x + COL_W},${base} ${x + COL_W / 2},${tip}`, fill, "data-point": p };
    if (wrong.has(p)) Object.assign(attrs, { class: "wrong", stroke: "#ff2a2a", "stroke-width": 8 });
    el("polygon", attrs, svg);
    const n = v.points[p - 1];
    // Plakoto (RULES-TAVLI.md P3): a pinned checker lies at the base, under the pinner's checkers
    const pin = (v.pinned || [])[p - 1] || 0;
    const under = pin ? 1 : 0;
    if (pin) {
      const { x: cx, y: cy } = checkerAt(p, 0);
      el("circle", { cx, cy, r: R, fill: pin > 0 ? "#f7f7f2" : "#151515", stroke: "#e0532b", "stroke-width": 7,
        class: "checker pinned", "data-point": p, "data-side": pin > 0 ? "white" : "black" }, svg);
    }
    const count = Math.abs(n) + under;
    const shown = Math.min(count, 5);
    for (let i = under; i < shown; i++) {
      const { x: cx, y: cy } = checkerAt(p, i);
      el("circle", { cx, cy, r: R, fill: n > 0 ? "#f7f7f2" : "#151515", stroke: "#888", "stroke-width": 3, class: "checker" }, svg);
    }
    if (count > 5) {
      const { x: cx, y: cy } = checkerAt(p, 4);
      const t = el("text", { x: cx, y: cy + 12, "text-anchor": "middle", "font-size": 34, fill: n > 0 ? "#000" : "#fff" }, svg);
      t.textContent = String(count);
    }
    // the last play: a ring on each checker that arrived, a dashed ghost where each left
    for (let k = 0; k < (lastTo.get(p) || 0); k++) {
      const { x: cx, y: cy } = checkerAt(p, Math.max(0, Math.min(count, 5) - 1 - k));
      el("circle", { cx, cy, r: R + 4, fill: "none", stroke: "#1fa34a", "stroke-width": 8, class: "last-to", "data-point": p }, svg);
    }
    for (let k = 0; k < (lastFrom.get(p) || 0); k++) {
      const { x: cx, y: cy } = checkerAt(p, count + k);
      el("circle", { cx, cy, r: R - 2, fill: "none", stroke: last.side === "white" ? "#9a8f6a" : "#333",
        "stroke-width": 5, "stroke-dasharray": "10 7", class: "last-from", "data-point": p }, svg);
    }
  }
  // bar: White's checkers below the middle, Black's above
  [["white", 0], ["black", 1]].forEach(([side, i]) => {
    const n = v.bar[i];
    const { x, y } = barSpot(side);
    if (n) {
      el("circle", { cx: x, cy: y, r: R, fill: colourOf(side), stroke: "#888", "stroke-width": 3, class: "checker" }, svg);
      const t = el("text", { x, y: y + 12, "text-anchor": "middle", "font-size": 34, fill: side === "white" ? "#000" : "#fff" }, svg);
      t.textContent = String(n);
    }
    if (last && last.side === side && lastFrom.get("bar")) {
      el("circle", { cx: x, cy: y, r: R - 2, fill: "none", stroke: "#d8c890", "stroke-width": 5, "stroke-dasharray": "10 7",
        class: "last-from", "data-point": "bar" }, svg);
    }
  });
  // trays on the right: White's bottom, Black's top
  const trayX = W - M - OFFW + 10;
  [["white", 0, H - M - 20], ["black", 1, M + 20]].forEach(([side, i, y]) => {
    const n = v.off[i];
    const arrived = last && last.side === side ? (lastTo.get("off") || 0) : 0;
    for (let k = 0; k < n; k++) {
      const yy = side === "white" ? y - k * 14 : y + k * 14;
      const attrs = { x: trayX, y: yy - 5, width: OFFW - 20, height: 10, fill: colourOf(side), stroke: "#888" };
      if (k >= n - arrived) Object.assign(attrs, { stroke: "#1fa34a", "stroke-width": 4, class: "last-to", "data-point": "off" });
      el("rect", attrs, svg);
    }
  });
  // the dice where they lie: each in the roller's right-hand half (the opening roll: one each side)
  const byHalf = { left: [], right: [] };
  for (const d of v.dice_laid || []) byHalf[d.half].push(d);
  for (const half of ["left", "right"]) {
    const ds = byHalf[half];
    ds.forEach((d, i) => drawDie(svg, HALF_CENTRE[half] + (i - (ds.length - 1) / 2) * 95, H / 2, d.value, d.side));
  }
  if (!v.tavli) drawCube(svg, v.cube);  // no cube in a tavli match (RULES-TAVLI.md V2, T3)
}

function fmtClock(s) {
  if (s === null || s === undefined) return "";
  const t = Math.max(0, Math.round(s));
  return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, "0")}`;
}

function renderMoves(v) {
  $("game-number").textContent = v.game;
  $("ml-white").textContent = v.players[0];
  $("ml-black").textContent = v.players[1];
  const body = document.querySelector("#move-list tbody");
  body.replaceChildren();
  for (const m of v.moves || []) {
    const tr = document.createElement("tr");
    for (const text of [`${m.n})`, m.white, m.black]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  const scroll = $("move-scroll");
  scroll.scrollTop = scroll.scrollHeight;  // the newest move stays in view
}

function render(v) {
  if (typeof v.seq === "number" && v.seq <= lastSeq && v.seq !== 0) return;
  lastSeq = v.seq;
  const verdict = $("verdict");
  verdict.textContent = v.verdict ? v.verdict.text : "";
  verdict.className = v.verdict ? v.verdict.style : "info";
  $("rule").textContent = v.verdict && v.verdict.rule ? `rule ${v.verdict.rule}` : "";
  if (!v.points) return;  // nothing on the table yet
  $("name-white").textContent = v.players[0];
  $("name-black").textContent = v.players[1];
  $("score").textContent = `${v.score[0]} – ${v.score[1]}`;
  $("match-length").textContent = v.tavli ? `tavli to ${v.tavli.match_length}`
    : v.match_length ? `match to ${v.match_length}` : "money game";
  // the game being played (RULES-TAVLI.md): Portes, Plakoto or Fevga, and the games of the tavli match so far
  const name = (g) => g.charAt(0).toUpperCase() + g.slice(1);
  $("variant").textContent = name(v.variant || "portes");
  $("variant").hidden = !v.tavli && (v.variant || "portes") === "portes";
  $("tavli-games").textContent = v.tavli
    ? v.tavli.history.map((g) => `${name(g.game)}: ${g.winner ? `${name(g.winner)} +${g.points}` : "draw"}`).join(" · ") : "";
  $("crawford").hidden = !v.crawford;
  $("dice").textContent = v.dice.length ? v.dice.join(" ") : "–";
  $("cube").textContent = v.tavli ? "none (V2)" : v.cube.text;
  $("pips-white").textContent = v.pips[0];
  $("pips-black").textContent = v.pips[1];
  $("turn").textContent = v.turn ? v.players[v.turn === "white" ? 0 : 1] : "–";
  $("last-play").textContent = v.last_play
    ? `${v.players[v.last_play.side === "white" ? 0 : 1]} ${v.last_play.dice.join("")}: ${v.last_play.notation || "(no move)"}` : "–";
  $("clocks").hidden = !v.clocks;
  if (v.clocks) {
    $("clock-white").textContent = fmtClock(v.clocks[0]);
    $("clock-black").textContent = fmtClock(v.clocks[1]);
  }
  $("position-id").textContent = v.position_id;
  $("xgid").textContent = v.xgid;
  const due = new Set(v.decisions || []);
  document.querySelectorAll("#decisions button").forEach((b) => b.classList.toggle("due", due.has(b.dataset.action)));
  $("roll-entry").hidden = !due.has("roll"); // the dice pickers only while the referee asks for the roll
  renderMoves(v);
  drawBoard(v);
}

async function decide(action) {
  const pin = $("pin").value;
  sessionStorage.setItem("tavli-pin", pin);
  const status = $("input-status");
  try {
    const res = await fetch("/api/input", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Tavli-CSRF": CSRF },
      // "roll": the two dice the players read (at the opening roll White's die first)
      body: JSON.stringify(action === "roll" ? { action, pin, roll: $("die-a").value + $("die-b").value } : { action, pin }),
    });
    const body = await res.json();
    status.textContent = body.ok ? `sent: ${body.action}` : body.error;
    status.dataset.ok = body.ok ? "1" : "0";
  } catch (e) {
    status.textContent = "the table did not answer: check the connection";
    status.dataset.ok = "0";
  }
}

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws.onopen = () => { $("live").textContent = ""; };
  ws.onmessage = (e) => render(JSON.parse(e.data));
  ws.onclose = (e) => {
    // 1013: the table has as many live pages as it serves; show why and try again later
    $("live").textContent = e.code === 1013 ? `${e.reason} (retrying)` : "reconnecting to the table…";
    setTimeout(connect, e.code === 1013 ? 15000 : 1000);
    if (e.code === 1013) fetch("/api/state").then((r) => r.json()).then(render).catch(() => {});
  };
}

document.querySelectorAll("#decisions button").forEach((b) => b.addEventListener("click", () => decide(b.dataset.action)));
$("pin").value = sessionStorage.getItem("tavli-pin") || "";
fetch("/api/state").then((r) => r.json()).then(render).catch(() => {});
connect();
