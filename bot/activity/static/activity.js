// The Activity's page, inside Discord: it signs in through Discord (discord.js), shows its instance's table
// as the server sends it (a socket, else polling) and sends what the person chooses. Every rule, label and
// word comes from the server; the drawing is `hog gui`'s (draw.js). Ids are strings (Discord's are too
// large for a JavaScript number).
import {
  $, TYPED, attempter, call, choiceButtons, drawBoard, drawLog, drawRules, drawTurn, el, hintTable,
  typed as typedKey,
} from "/static/draw.js";
import { connect } from "./discord.js";

const query = new URLSearchParams(location.search);
const POLL_MS = 3000; // how often the table is asked for while the socket is down
const PING_MS = 20000; // how often the page pings its socket
const SILENT_MS = 45000; // a socket that said nothing for this long is closed and opened again
const LONGEST_RETRY_MS = 15000;

let setup = null; // what /api/setup offers
let parent = null; // Discord's client, the parent frame
let me = null; // {id, name}: who signed in
let token = null; // our sign-in, sent in the Authorization header
let table = null; // the instance's table, as the server last sent it
let lobby = false; // the person asked for the new-game form while the last game stays on the table
let typed = "";
let offset = 0; // the server's clock minus this page's, in seconds
let socket = null;
let heard = 0; // when the socket last said something
let retries = 0;
let polling = null;
let givingUp = null; // while "Give up" waits for its second press: the timer that takes it back

function say(text) {
  $("message").textContent = text;
  $("message").hidden = !text;
}

function status(text) {
  $("connection").textContent = text;
  $("connection").hidden = !text;
}

// ---- asking the server, signed in ----

async function signIn() {
  const { code } = await parent.command("AUTHORIZE", {
    client_id: setup.client_id, response_type: "code", state: "", prompt: "none", scope: ["identify"],
  });
  const signed = await call("POST", "/api/token", { code, instance_id: query.get("instance_id") });
  token = signed.token;
  me = signed.user;
  await parent.command("AUTHENTICATE", { access_token: signed.access_token });
  return signed.table;
}

// The server's answer to a request signed with our token; a sign-in run out is made again, once.
async function api(method, path, body) {
  try {
    return await call(method, path, body, { Authorization: `Bearer ${token}` });
  } catch (error) {
    if (error.status !== 401) throw error;
    await signIn();
    return call(method, path, body, { Authorization: `Bearer ${token}` });
  }
}

const attempts = attempter(say, () => draw());
const attempt = attempts.run;

// ---- live: the socket, and polling while it is down ----

function live() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/api/live`);
  const opened = socket;
  opened.addEventListener("open", () => {
    opened.send(JSON.stringify({ token }));
    heard = Date.now();
  });
  opened.addEventListener("message", (event) => {
    heard = Date.now();
    const message = JSON.parse(event.data);
    if (message.type === "table") {
      retries = 0;
      stopPolling();
      status("");
      received(message.table);
    }
  });
  opened.addEventListener("close", async (event) => {
    if (socket !== opened) return;
    socket = null;
    startPolling();
    if (event.code === 4401) { // our sign-in was refused: sign in again before connecting
      try { await signIn(); } catch (error) { say(error.message); return; }
    }
    status("Reconnecting… (the game goes on: the page asks for it every few seconds)");
    const wait = Math.min(LONGEST_RETRY_MS, 500 * 2 ** retries++);
    setTimeout(live, wait);
  });
}

function startPolling() {
  if (polling) return;
  polling = setInterval(async () => {
    try {
      received(await api("GET", "/api/table"));
    } catch (error) {
      status(`Cannot reach the server right now: ${error.message}`);
    }
  }, POLL_MS);
}

function stopPolling() {
  clearInterval(polling);
  polling = null;
}

setInterval(() => {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  if (Date.now() - heard > SILENT_MS) {
    socket.close();
    return;
  }
  socket.send(JSON.stringify({ type: "ping" }));
}, PING_MS);

// A table from the server: drawn unless one newer was drawn already (answers and pushes may cross).
function received(data) {
  if (table && newer(table.stamp, data.stamp)) return;
  if (table && table.match && data.match && data.match.id !== table.match.id) lobby = false;
  const moved = !table || !data.match || !table.match || data.match.board.turn !== table.match.board.turn;
  table = data;
  offset = data.now - Date.now() / 1000;
  if (moved) {
    typed = "";
    $("hint").replaceChildren();
  }
  draw();
}

function newer(a, b) {
  return a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);
}

// ---- drawing ----

function mySeat(match) {
  return match.seats.findIndex((seat) => seat && me && seat.id === me.id);
}

function myTurn(match) {
  return match.status === "active" && !match.house_to_move && mySeat(match) === match.board.mover;
}

function show(section) {
  for (const id of ["signing-in", "lobby", "game"]) $(id).hidden = id !== section;
}

function draw() {
  if (!table) return;
  const match = table.match;
  const open = match && (match.status === "active" || match.status === "pending");
  if (!match || ((lobby || table.waiting) && !open)) { // a new game asked for, here or by someone waiting
    drawLobby();
  } else {
    drawGame(match);
  }
}

function drawLobby() {
  show("lobby");
  const waiting = table.waiting;
  const mine = waiting && table.host.id === me.id;
  $("waiting").hidden = !waiting;
  if (waiting) {
    const game = `${waiting.rules.title}, first to ${waiting.goal}`;
    $("waiting-text").textContent = mine
      ? `You are waiting for a friend to take the other seat: ${game}. Anyone in this Activity can.`
      : `${table.host.name} is waiting for a friend: ${game}.`;
  }
  $("sit").hidden = !waiting || mine;
  $("stand").hidden = !mine;
  $("setup-form").hidden = Boolean(mine);
  $("back").hidden = !table.match;
  for (const id of ["sit", "stand", "start"]) $(id).disabled = attempts.busy;
}

function drawGame(match) {
  show("game");
  const board = match.board;
  const seat = mySeat(match);
  $("game-title").textContent = `${match.rules.title} · first to ${board.goal}`;
  $("seat").textContent = seat >= 0
    ? `You are ${board.players[seat].name}${seat === 0 ? ", who moved first" : ""}.`
    : "You are watching.";
  $("commitment").textContent = match.commitment || "";
  drawBoard($("board"), board);
  if (match.house_to_move) $("board").querySelector(".status").textContent = `${board.players[board.mover].name} is rolling…`;
  drawTurn($("last-turn"), match.turns[match.turns.length - 1]);
  const playing = match.status === "active" && seat >= 0;
  $("controls").hidden = !playing;
  if (playing) {
    const mine = myTurn(match);
    $("choices").replaceChildren(...choiceButtons(board.choices, attempts.busy || !mine, play));
    $("hint-button").disabled = attempts.busy || !mine;
    $("forfeit").disabled = attempts.busy;
    $("typed").textContent = TYPED(typed);
  }
  const over = match.status !== "active" && match.status !== "pending";
  $("end").hidden = !over;
  if (over) {
    $("result").textContent = board.status;
    $("rematch").hidden = seat < 0 || match.rematch[seat];
    $("rematch").disabled = attempts.busy;
    $("seed-shown").textContent = match.seed || "";
    $("record").value = match.record ? JSON.stringify(match.record) : "";
  }
  drawLog($("log"), match.turns);
  tick();
}

// The turn's clock: it runs once the board in the channel shows the turn.
function tick() {
  const match = table && table.match;
  if (!match || match.status !== "active" || !match.deadline) {
    $("clock").textContent = "";
    return;
  }
  const left = Math.max(0, Math.round(match.deadline - (Date.now() / 1000 + offset)));
  const name = match.board.players[match.board.mover].name;
  $("clock").textContent = `${name}'s turn ends in ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}.`;
}

function drawPeople(participants) {
  $("people").hidden = !participants.length;
  $("participants").replaceChildren(...participants.map((person) => el("li", {},
    person.nickname || person.global_name || person.username)));
}

// ---- what the person does ----

async function play(choice) {
  typed = "";
  await attempt(async () => {
    received(await api("POST", "/api/moves", { turn: table.match.board.turn, choice }));
  });
}

async function start(event) {
  event.preventDefault();
  await attempt(async () => {
    const rules = $("rules").value;
    const goal = Number($("goal").value);
    const level = $("opponent").value;
    if (level === "perfect") say("Working out perfect play (seconds, the first time)…");
    received(level
      ? await api("POST", "/api/table/house", { rules, goal, level })
      : await api("POST", "/api/table/host", { rules, goal }));
    lobby = false;
  });
}

function act(path) {
  return () => attempt(async () => received(await api("POST", path, {})));
}

// "Give up" asks to be pressed again within a few seconds: one press by mistake loses nothing.
function giveUp() {
  const button = $("forfeit");
  clearTimeout(givingUp);
  if (button.dataset.asked) {
    delete button.dataset.asked;
    button.textContent = "Give up";
    return act("/api/forfeit")();
  }
  button.dataset.asked = "yes";
  button.textContent = "Press again to give up";
  givingUp = setTimeout(() => {
    delete button.dataset.asked;
    button.textContent = "Give up";
  }, 4000);
}

async function hint() {
  await attempt(async () => {
    const found = await api("GET", "/api/hint");
    if (found.turn !== table.match.board.turn) return;
    $("hint").replaceChildren(hintTable(found, table.match.board.players[table.match.board.mover].name));
  });
}

function typeKey(key) {
  const result = typedKey(key, typed, table.match.board.choices);
  if (result === null) return;
  if (result.play !== null) return play(result.play);
  typed = result.typed;
  if (result.say) say(result.say);
  $("typed").textContent = TYPED(typed);
}

// ---- wiring ----

function fillForm() {
  $("rules").replaceChildren(...setup.rules.map((r) => el("option", { value: r.id }, `${r.title} (${r.id})`)));
  $("rules").value = setup.default;
  $("goal").max = setup.max_goal;
  for (const level of setup.levels) {
    $("opponent").append(el("option", { value: level.id }, `The house, ${level.id}: ${level.description}`));
  }
  const rulesText = () => drawRules($("rules-text"), setup.rules.find((r) => r.id === $("rules").value));
  $("rules").addEventListener("change", rulesText);
  rulesText();
}

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest("input, select, textarea")) return;
  if (!$("game").hidden && table && table.match && myTurn(table.match) && !attempts.busy) typeKey(event.key);
});

async function main() {
  $("setup-form").addEventListener("submit", start);
  $("sit").addEventListener("click", act("/api/table/sit"));
  $("stand").addEventListener("click", act("/api/table/stand"));
  $("forfeit").addEventListener("click", giveUp);
  $("rematch").addEventListener("click", act("/api/rematch"));
  $("hint-button").addEventListener("click", hint);
  $("new-game").addEventListener("click", () => { lobby = true; say(""); draw(); });
  $("back").addEventListener("click", () => { lobby = false; draw(); });
  setInterval(tick, 1000);
  try {
    setup = await call("GET", "/api/setup");
    fillForm();
    parent = await connect(query, setup.client_id, setup.parents);
    if (!parent) {
      $("signing-in-text").textContent = "Hog plays here inside Discord: open it from a channel's Activities.";
      return;
    }
    parent.onClose = (why) => status(`Discord closed the Activity's connection: ${why}`);
    const first = await signIn();
    $("who").textContent = `Signed in as ${me.name}`;
    received(first);
    live();
    const { participants } = await parent.command("GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS", null);
    drawPeople(participants);
    await parent.subscribe("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE", null, (data) => drawPeople(data.participants));
  } catch (error) {
    $("signing-in-text").textContent = error.message;
    say(error.message);
  }
}

document.addEventListener("DOMContentLoaded", main);
