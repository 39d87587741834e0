// The table page: draws what the referee decided; sends decisions with the table PIN.
"use strict";
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
let lastSeq = -1;

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  parent.appendChild(e);
  return e;
}

// White's point p (1-24) -> column 0-11 from the left and row (0 top, 1 bottom),
// White's home board bottom-right.
function pointSlot(p) {
  if (p <= 12) return { col: 12 - p, bottom: true };
  return { col: p - 13, bottom: false };
}

function drawBoard(v) {
  const svg = $("board");
  svg.replaceChildren();
  const W = 1400, H = 1000, M = 40, BAR = 80, OFFW = 90;
  const fieldW = W - 2 * M - OFFW, colW = (fieldW - BAR) / 12, r = Math.min(colW / 2 - 3, 38);
  el("rect", { x: 0, y: 0, width: W, height: H, fill: "#3b2414" }, svg);
  el("rect", { x: M, y: M, width: fieldW, height: H - 2 * M, fill: "#efe3c4" }, svg);
  const colX = (c) => M + c * colW + (c >= 6 ? BAR : 0);
  el("rect", { x: M + 6 * colW, y: M, width: BAR, height: H - 2 * M, fill: "#3b2414" }, svg);
  const wrong = new Set(v.wrong_points || []);
  for (let p = 1; p <= 24; p++) {
    const { col, bottom } = pointSlot(p);
    const x = colX(col), base = bottom ? H - M : M, tip = bottom ? H / 2 + 40 : H / 2 - 40;
    const fill = wrong.has(p) ? "#ffd400" : (col % 2 === 0 ? "#b3262c" : "#222");
    const attrs = { points: `${x},${base} ${x + colW},${base} ${x + colW / 2},${tip}`, fill, "data-point": p };
    if (wrong.has(p)) Object.assign(attrs, { class: "wrong", stroke: "#ff2a2a", "stroke-width": 8 });
    el("polygon", attrs, svg);
    const n = v.points[p - 1];
    if (!n) continue;
    const colour = n > 0 ? "#f7f7f2" : "#151515";
    const count = Math.abs(n);
    const shown = Math.min(count, 5);
    for (let i = 0; i < shown; i++) {
      const cy = bottom ? base - r - 2 - i * 2 * r : base + r + 2 + i * 2 * r;
      el("circle", { cx: x + colW / 2, cy, r, fill: colour, stroke: "#888", "stroke-width": 3 }, svg);
    }
    if (count > 5) {
      const cy = bottom ? base - r - 2 - 4 * 2 * r : base + r + 2 + 4 * 2 * r;
      const t = el("text", { x: x + colW / 2, y: cy + 12, "text-anchor": "middle", "font-size": 34, fill: n > 0 ? "#000" : "#fff" }, svg);
      t.textContent = String(count);
    }
  }
  // bar: White's checkers on the lower half, Black's on the upper half
  const barX = M + 6 * colW + BAR / 2;
  [[0, H / 2 + 60, "#f7f7f2"], [1, H / 2 - 60, "#151515"]].forEach(([side, y, fill]) => {
    const n = v.bar[side];
    if (!n) return;
    el("circle", { cx: barX, cy: y, r, fill, stroke: "#888", "stroke-width": 3 }, svg);
    const t = el("text", { x: barX, y: y + 12, "text-anchor": "middle", "font-size": 34, fill: side === 0 ? "#000" : "#fff" }, svg);
    t.textContent = String(n);
  });
  // trays on the right: White's bottom, Black's top
  const trayX = W - M - OFFW + 10;
  [[0, H - M - 20, "#f7f7f2"], [1, M + 20, "#151515"]].forEach(([side, y, fill]) => {
    const n = v.off[side];
    for (let i = 0; i < n; i++) {
      const yy = side === 0 ? y - i * 14 : y + i * 14;
      el("rect", { x: trayX, y: yy - 5, width: OFFW - 20, height: 10, fill, stroke: "#888" }, svg);
    }
  });
}

function fmtClock(s) {
  if (s === null || s === undefined) return "";
  const t = Math.max(0, Math.round(s));
  return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, "0")}`;
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
  $("match-length").textContent = v.match_length ? `match to ${v.match_length}` : "money game";
  $("crawford").hidden = !v.crawford;
  $("dice").textContent = v.dice.length ? v.dice.join(" ") : "–";
  $("cube").textContent = v.cube.owner ? `${v.cube.shown} (${v.cube.owner})` : String(v.cube.shown);
  $("pips-white").textContent = v.pips[0];
  $("pips-black").textContent = v.pips[1];
  $("turn").textContent = v.turn || "–";
  $("clocks").hidden = !v.clocks;
  if (v.clocks) {
    $("clock-white").textContent = fmtClock(v.clocks[0]);
    $("clock-black").textContent = fmtClock(v.clocks[1]);
  }
  $("position-id").textContent = v.position_id;
  $("xgid").textContent = v.xgid;
  const due = new Set(v.decisions || []);
  document.querySelectorAll("#decisions button").forEach((b) => b.classList.toggle("due", due.has(b.dataset.action)));
  drawBoard(v);
}

async function decide(action) {
  const pin = $("pin").value;
  sessionStorage.setItem("tavli-pin", pin);
  const status = $("input-status");
  try {
    const res = await fetch("/api/input", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ action, pin }),
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
  ws.onmessage = (e) => render(JSON.parse(e.data));
  ws.onclose = () => setTimeout(connect, 1000);
}

document.querySelectorAll("#decisions button").forEach((b) => b.addEventListener("click", () => decide(b.dataset.action)));
$("pin").value = sessionStorage.getItem("tavli-pin") || "";
fetch("/api/state").then((r) => r.json()).then(render).catch(() => {});
connect();
