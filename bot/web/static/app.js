// The page of `hog gui`: it draws what the server sends and sends what the player chooses. Every rule,
// label and word comes from the server (the engine); the page keeps only the game's id and what it shows.
"use strict";

const $ = (id) => document.getElementById(id);
let setup = null; // what /api/setup offers
let game = null; // the game being played, as the server last sent it
let viewed = null; // the record being watched
let step = 0; // the viewer's position: a turn's index, or steps.length for the end
let typed = ""; // digits typed towards a choice
let busy = false; // a request is on its way: no second move meanwhile
let coached = false; // the Coach box is ticked: what the coach says is asked for after each move

// ---- talking to the server ----

async function call(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.body = body instanceof ArrayBuffer ? body : JSON.stringify(body);
    options.headers["Content-Type"] = "application/json";
  }
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `The server answered ${response.status}.`);
  return data;
}

function say(text) {
  const message = $("message");
  message.textContent = text;
  message.hidden = !text;
}

async function attempt(action) {
  if (busy) return;
  busy = true;
  document.body.classList.add("busy");
  try {
    say("");
    await action();
  } catch (error) {
    say(error.message);
  } finally {
    busy = false;
    document.body.classList.remove("busy");
    if (game) drawChoices();
  }
}

// ---- drawing pieces ----

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}

// The engine's rule text marks names as **bold**; everything else is plain text.
function rich(text) {
  const node = el("span");
  text.split("**").forEach((part, index) => node.append(index % 2 ? el("strong", {}, part) : part));
  return node;
}

const SVG = "http://www.w3.org/2000/svg";
const PIPS = {
  1: [[30, 30]],
  2: [[16, 16], [44, 44]],
  3: [[16, 16], [30, 30], [44, 44]],
  4: [[16, 16], [44, 16], [16, 44], [44, 44]],
  5: [[16, 16], [44, 16], [30, 30], [16, 44], [44, 44]],
  6: [[16, 14], [44, 14], [16, 30], [44, 30], [16, 46], [44, 46]],
};

function svg(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

// One die as drawn: a six-sided one with pips, a four-sided one as a triangle with its number.
function die(value, sides) {
  const picture = svg("svg", {
    viewBox: "0 0 60 60", class: `die d${sides}${value === 1 ? " one" : ""}`,
    role: "img", "aria-label": `${value} on a ${sides}-sided die`,
  });
  if (sides === 6) {
    picture.append(svg("rect", { x: 3, y: 3, width: 54, height: 54, rx: 10 }));
    for (const [cx, cy] of PIPS[value]) picture.append(svg("circle", { cx, cy, r: 5.5, class: "pip" }));
  } else {
    picture.append(svg("polygon", { points: "30,4 57,54 3,54" }));
    const number = svg("text", { x: 30, y: 46, "text-anchor": "middle", class: "number" });
    number.textContent = value;
    picture.append(number);
  }
  return picture;
}

function percent(chance) {
  return `${(100 * chance).toFixed(1)}%`;
}

// The board: both players, the hidden parts and the server's status line (who moves with which dice, or who won).
function drawBoard(container, board) {
  container.replaceChildren();
  const players = el("div", { class: "players" });
  board.players.forEach((player, seat) => {
    const moving = !board.over && seat === board.mover;
    const card = el("div", { class: `player${moving ? " moving" : ""}${board.winner === seat ? " won" : ""}` });
    card.append(el("h3", {}, (moving ? "▶ " : "") + player.name));
    card.append(el("p", { class: "score" }, `${player.score}`, el("small", {}, ` / ${board.goal}`)));
    card.append(el("progress", { max: board.goal, value: Math.min(player.score, board.goal),
                                 "aria-label": `${player.name}: ${player.score} of ${board.goal}` }));
    for (const line of player.hidden) card.append(el("p", { class: "hidden-part" }, line));
    players.append(card);
  });
  container.append(players);
  for (const line of board.shared) container.append(el("p", { class: "hidden-part" }, line));
  container.append(el("p", { class: "status" }, board.status));
}

// One turn as played: the choice, the dice drawn as dice, the points, each rule that fired, the commentary.
function drawTurn(container, turn) {
  container.replaceChildren();
  if (!turn) return;
  container.append(el("h3", {}, `Turn ${turn.number} · ${turn.name}: ${turn.label}`));
  if (turn.dice) {
    const dice = el("p", { class: "dice" });
    for (const roll of turn.rolls) dice.append(die(roll, turn.sides));
    container.append(dice);
  }
  const [score0, score1] = turn.scores;
  container.append(el("p", { class: "points" }, `${turn.points} ${turn.points === 1 ? "point" : "points"}. Score: ${score0} to ${score1}.`));
  for (const [kind, lines] of [["events", turn.events], ["commentary", turn.commentary]]) {
    if (lines.length) container.append(el("ul", { class: kind }, ...lines.map((line) => el("li", {}, line))));
  }
}

// ---- the new-game form ----

function drawSetup() {
  const rules = $("rules");
  rules.replaceChildren(...setup.rules.map((r) => el("option", { value: r.id }, `${r.title} (${r.id})`)));
  rules.value = setup.default;
  $("goal").max = setup.max_goal;
  for (const level of setup.levels) {
    $("house").append(el("option", { value: level.id }, `The house, ${level.id}: ${level.description}`));
  }
  drawRules();
}

function drawRules() {
  const rules = setup.rules.find((r) => r.id === $("rules").value);
  const text = $("rules-text");
  text.replaceChildren(el("h3", {}, rules.title));
  const [common, ...own] = rules.text.split("\n").filter((line) => line.trim());
  text.append(el("p", {}, rich(common)));
  text.append(el("ul", {}, ...own.map((line) => el("li", {}, rich(line.replace(/^• /, ""))))));
}

function show(section) {
  for (const id of ["setup", "game", "viewer"]) $(id).hidden = id !== section;
}

async function start(event) {
  event.preventDefault();
  await attempt(async () => {
    const house = $("house").value || null;
    if (house === "perfect") say("Working out perfect play (seconds, the first time)…");
    game = await call("POST", "/api/games", {
      rules: $("rules").value, goal: Number($("goal").value), house, seed: $("seed").value.trim() || null,
    });
    say("");
    typed = "";
    show("game");
    drawGame();
    await drawCoach();
  });
}

// ---- the game ----

function keyOf(choice) {
  return choice === -1 ? "-" : String(choice);
}

function drawChoices() {
  const buttons = game.board.choices.map((choice) => {
    const rolls = choice.dice ? `rolls ${choice.dice} ${choice.sides}-sided dice` : "rolls no dice";
    const button = el("button", { type: "button", class: choice.choice > 0 ? "roll" : "special", title: rolls },
                      el("span", { class: "label" }, choice.label),
                      el("kbd", { "aria-hidden": "true" }, keyOf(choice.choice)));
    button.disabled = busy || !game.your_turn;
    button.addEventListener("click", () => play(choice.choice));
    return button;
  });
  $("choices").replaceChildren(...buttons);
  $("hint-button").disabled = busy || !game.your_turn;
}

function drawGame() {
  const board = game.board;
  $("game-title").textContent = `${game.rules.title} · first to ${board.goal}`;
  $("commitment").textContent = game.commitment;
  drawBoard($("board"), board);
  drawTurn($("last-turn"), game.turns[game.turns.length - 1]);
  drawChoices();
  $("controls").hidden = board.over;
  $("typed").textContent = "";
  $("hint").replaceChildren();
  $("log").replaceChildren(...game.turns.slice().reverse().map((turn) => {
    const item = el("li", {});
    drawTurn(item, turn);
    return item;
  }));
  $("end").hidden = !game.seed;
  if (game.seed) {
    $("seed-shown").textContent = game.seed;
    const record = JSON.stringify(game.record);
    $("record").value = record;
    $("download").href = "data:application/json;charset=utf-8," + encodeURIComponent(record);
  }
}

async function play(choice) {
  typed = "";
  await attempt(async () => {
    game = await call("POST", `/api/games/${game.id}/moves`, { turn: game.board.turn, choice });
    drawGame();
    await drawCoach();
  });
}

// The coach's lines so far, in turn order, and its summing up once the game is over; nothing while unticked.
async function drawCoach() {
  if (!coached || !game) {
    $("coach").replaceChildren();
    return;
  }
  const said = await call("GET", `/api/games/${game.id}/coach`);
  const lines = [...said.lines.map((line) => line.text), ...said.summary];
  const heard = lines.length ? lines : ["Nothing to say yet: no choice of yours has cost 5 points of winning chance."];
  $("coach").replaceChildren(el("h3", {}, "Coach"), el("ul", {}, ...heard.map((line) => el("li", {}, line))));
}

async function hint() {
  await attempt(async () => {
    const found = await call("GET", `/api/games/${game.id}/hint`);
    if (found.turn !== game.board.turn) return;
    const rows = found.choices.map((choice) => el("tr", { class: choice.choice === found.best ? "best" : "" },
      el("th", { scope: "row" }, choice.label + (choice.choice === found.best ? " (best)" : "")),
      el("td", {}, percent(choice.chance))));
    const who = game.board.players[game.board.mover].name;
    const table = el("table", { class: "hint" },
      el("caption", {}, `${who}: your exact chance to win after each choice, both sides playing perfectly `
                        + `from then on (now ${percent(found.chance)})`),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Choice"),
                                   el("th", { scope: "col" }, "Chance to win"))),
      el("tbody", {}, ...rows));
    $("hint").replaceChildren(table);
  });
}

// Digits type a choice; it is played once no other legal choice starts with what was typed (so "1"
// waits for Enter, or for a "0" that makes 10, where 10 is legal); "-" plays -1.
function typeKey(key) {
  const legal = game.board.choices.map((choice) => keyOf(choice.choice));
  if (key === "Escape") {
    typed = "";
  } else if (key === "Enter") {
    if (legal.includes(typed)) return play(Number(typed));
    typed = "";
  } else if (key === "-" || /^[0-9]$/.test(key)) {
    typed += key;
    const longer = legal.some((choice) => choice !== typed && choice.startsWith(typed));
    if (legal.includes(typed) && !longer) return play(key === "-" ? -1 : Number(typed));
    if (!longer) {
      say(`No choice starts with ${typed}.`);
      typed = "";
    }
  } else {
    return;
  }
  $("typed").textContent = typed ? `Typed ${typed}: Enter plays it, another digit goes on.` : "";
}

// ---- the viewer ----

async function view(source) {
  await attempt(async () => {
    try {
      viewed = await source();
    } catch (error) {
      throw new Error(`This record cannot be watched: ${error.message}`);
    }
    step = 0;
    show("viewer");
    $("verdict").textContent = viewed.verdict;
    $("chart").src = viewed.chart.src;
    $("chart").alt = viewed.chart.alt;
    $("step").max = viewed.steps.length;
    $("viewer-title").textContent = `Game viewer · ${viewed.rules} · first to ${viewed.goal}`;
    $("accuracy").tBodies[0].replaceChildren(...viewed.players.map((player) => el("tr", {},
      el("th", { scope: "row" }, player.name), el("td", {}, `${player.moves}`),
      el("td", {}, `${player.accuracy.toFixed(1)}%`), el("td", {}, `${(100 * player.lost).toFixed(1)} points`))));
    drawStep();
  });
}

function drawStep() {
  const last = viewed.steps.length;
  const here = step < last ? viewed.steps[step] : viewed.end;
  $("step").value = step;
  $("previous").disabled = step === 0;
  $("next").disabled = step === last;
  const position = step < last ? `Before turn ${here.turn.number} (${step + 1} of ${last})` : "The end";
  $("position").textContent = `${position}. ${viewed.names[0]}'s chance to win: ${percent(here.chance)}.`;
  drawBoard($("view-board"), here.board);
  drawTurn($("view-turn"), here.turn);
  if (here.move) {
    const move = here.move;
    const verdict = move.cost === 0
      ? `The best choice: ${percent(move.chance)} to win.`
      : `${percent(move.chance)} to win; the best, ${move.best_label}, had ${percent(move.best_chance)}: `
        + `it cost ${(100 * move.cost).toFixed(1)} points of winning chance.`;
    $("view-turn").append(el("p", { class: "cost" }, `Chose ${move.label}: ${verdict}`));
  }
}

function goTo(index) {
  step = Math.max(0, Math.min(viewed.steps.length, index));
  drawStep();
}

function openFile() {
  const file = $("record-file").files[0];
  if (!file) return;
  $("record-file").value = "";
  view(async () => call("POST", "/api/replay", await file.arrayBuffer()));
}

// ---- wiring ----

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest("input, select, textarea")) return;
  if (!$("game").hidden && game && game.your_turn && !busy) {
    typeKey(event.key);
  } else if (!$("viewer").hidden && viewed && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
    goTo(step + (event.key === "ArrowLeft" ? -1 : 1));
  }
});

document.addEventListener("DOMContentLoaded", async () => {
  $("setup-form").addEventListener("submit", start);
  $("rules").addEventListener("change", drawRules);
  $("new-game").addEventListener("click", () => { say(""); show("setup"); });
  $("record-file").addEventListener("change", openFile);
  $("hint-button").addEventListener("click", hint);
  $("coach-toggle").addEventListener("change", () => {
    coached = $("coach-toggle").checked;
    attempt(drawCoach);
  });
  $("watch").addEventListener("click", () => view(() => call("POST", "/api/replay", game.record)));
  $("previous").addEventListener("click", () => goTo(step - 1));
  $("next").addEventListener("click", () => goTo(step + 1));
  $("step").addEventListener("input", () => goTo(Number($("step").value)));
  try {
    setup = await call("GET", "/api/setup");
    drawSetup();
  } catch (error) {
    say(error.message);
    return;
  }
  if (setup.record && location.hash === "#replay") view(() => call("GET", "/api/replay"));
});
