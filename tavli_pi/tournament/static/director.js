// The director's page: one card per table, updated from the /ws websocket.
"use strict";

const cards = new Map();   // table id -> card element
let lastMessageAt = 0;

function clock(seconds) {
  if (seconds === null || seconds === undefined) return "–";
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function setText(card, selector, text) {
  card.querySelector(selector).textContent = text;
}

function render(t) {
  let card = cards.get(t.table);
  if (!card) {
    card = document.getElementById("card").content.firstElementChild.cloneNode(true);
    card.dataset.table = t.table;
    cards.set(t.table, card);
    const main = document.getElementById("tables");
    const after = [...cards.keys()].filter(k => k !== t.table)
      .sort((a, b) => a.localeCompare(b, undefined, {numeric: true}))
      .find(k => k.localeCompare(t.table, undefined, {numeric: true}) > 0);
    main.insertBefore(card, after ? cards.get(after) : null);
    document.getElementById("empty").hidden = true;
  }
  card.dataset.seq = t.seq;
  card.dataset.phase = t.phase;
  setText(card, ".name", `Table ${t.table}`);
  setText(card, ".status", t.online === false ? "offline" : "online");
  card.classList.toggle("offline", t.online === false);
  setText(card, ".phase", t.phase.replace(/_/g, " "));
  setText(card, ".white", t.players[0]);
  setText(card, ".black", t.players[1]);
  setText(card, ".score", `${t.score[0]} – ${t.score[1]}`);
  setText(card, ".length", t.match_length ? `to ${t.match_length}` : "money");
  card.querySelector(".crawford").hidden = !t.crawford;
  setText(card, ".cube", t.cube_value > 1 ? `cube ${t.cube_value} (${t.cube_owner || "centre"})` : "");
  const clocks = t.clocks || [null, null];
  setText(card, ".clock-white", `⏱ ${clock(clocks[0])}`);
  setText(card, ".clock-black", `⏱ ${clock(clocks[1])}`);
  card.querySelector(".clocks").hidden = !t.clocks;
  setText(card, ".last", t.last);
  setText(card, ".result", t.result);
  setText(card, ".seq", `#${t.seq}`);
  const ul = card.querySelector(".alerts");
  ul.replaceChildren(...t.alerts.map(a => {
    const li = document.createElement("li");
    li.className = `alert ${a.kind}${a.open ? " open" : ""}`;
    li.textContent = a.text;
    return li;
  }));
  card.classList.toggle("alarm", t.alerts.some(a => a.open));
}

// The director's link to the MQTT broker: a red banner while it is down, so stale cards are never taken for live.
function showBroker(b) {
  const el = document.getElementById("broker");
  if (!b || !b.state) return;
  el.dataset.state = b.state;
  el.hidden = b.state === "up";
  const since = b.since ? ` (since ${new Date(b.since * 1000).toLocaleTimeString()})` : "";
  el.textContent = b.state === "down"
    ? `MQTT broker ${b.address} unreachable${since}: ${b.text}. The cards below are not live.`
    : `Connecting to the MQTT broker ${b.address}…`;
  el.className = `broker ${b.state}`;
}

function connect(delay) {
  const link = document.getElementById("link");
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  ws.onopen = () => { link.textContent = "live"; link.className = "link up"; delay = 500; };
  ws.onmessage = ev => {
    const msg = JSON.parse(ev.data);
    lastMessageAt = performance.now();
    if (msg.type === "snapshot") { msg.tables.forEach(render); showBroker(msg.broker); }
    else if (msg.type === "table") render(msg.table);
    else if (msg.type === "broker") showBroker(msg.broker);
  };
  ws.onclose = () => {
    link.textContent = "reconnecting…"; link.className = "link down";
    setTimeout(() => connect(Math.min(delay * 2, 10000)), delay);
  };
}

connect(500);
