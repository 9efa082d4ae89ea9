// The page of `hog gui`: it draws what the server sends and sends what the player chooses. Every rule,
// label and word comes from the server (the engine); the page keeps only the game's id and what it shows.
// Drawing is draw.js's, shared with the Activity's page.
import {
  $, TYPED, attempter, call, choiceButtons, drawBoard, drawLog, drawRules as drawRulesOf, drawTurn, el, hintTable,
  percent, typed as typedKey,
} from "./draw.js";

let setup = null; // what /api/setup offers
let game = null; // the game being played, as the server last sent it
let viewed = null; // the record being watched
let step = 0; // the viewer's position: a turn's index, or steps.length for the end
let typed = ""; // digits typed towards a choice
let coached = false; // the Coach box is ticked: what the coach says is asked for after each move

function say(text) {
  const message = $("message");
  message.textContent = text;
  message.hidden = !text;
}

const attempts = attempter(say, () => { if (game) drawChoices(); });
const attempt = attempts.run;

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
  drawRulesOf($("rules-text"), setup.rules.find((r) => r.id === $("rules").value));
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

function drawChoices() {
  $("choices").replaceChildren(...choiceButtons(game.board.choices, attempts.busy || !game.your_turn, play));
  $("hint-button").disabled = attempts.busy || !game.your_turn;
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
  drawLog($("log"), game.turns);
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
    $("hint").replaceChildren(hintTable(found, game.board.players[game.board.mover].name));
  });
}

function typeKey(key) {
  const result = typedKey(key, typed, game.board.choices);
  if (result === null) return;
  if (result.play !== null) return play(result.play);
  typed = result.typed;
  if (result.say) say(result.say);
  $("typed").textContent = TYPED(typed);
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
  if (!$("game").hidden && game && game.your_turn && !attempts.busy) {
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
  $("watch").addEventListener("click", () => view(() => call("POST", "/api/replay", game.record)));
  $("previous").addEventListener("click", () => goTo(step - 1));
  $("next").addEventListener("click", () => goTo(step + 1));
  $("step").addEventListener("input", () => goTo(Number($("step").value)));
  $("coach-toggle").addEventListener("change", () => {
    coached = $("coach-toggle").checked;
    attempt(drawCoach);
  });
  try {
    setup = await call("GET", "/api/setup");
    drawSetup();
  } catch (error) {
    say(error.message);
    return;
  }
  if (setup.record && location.hash === "#replay") view(() => call("GET", "/api/replay"));
});
