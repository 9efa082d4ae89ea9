// What the pages of Hog share (`hog gui`'s, and the Activity's that Discord frames): asking the server, and
// drawing what it sends. Every rule, label and word comes from the server (the engine); these only draw.
"use strict";

export const $ = (id) => document.getElementById(id);

// ---- talking to the server ----

// The server's JSON answer; its refusal's words as an Error (with the status) for a 4xx or 5xx.
export async function call(method, path, body, headers = {}) {
  const options = { method, headers: { ...headers } };
  if (body !== undefined) {
    options.body = body instanceof ArrayBuffer ? body : JSON.stringify(body);
    options.headers["Content-Type"] = "application/json";
  }
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) {
    const error = new Error(data.error || `The server answered ${response.status}.`);
    error.status = response.status;
    throw error;
  }
  return data;
}

// One request at a time: while `action` runs the page is busy (a second action is ignored), its failure's
// words are said with `say`, and `after` draws the page again. `attempts.busy` tells whether one runs.
export function attempter(say, after) {
  const attempts = { busy: false };
  attempts.run = async (action) => {
    if (attempts.busy) return;
    attempts.busy = true;
    document.body.classList.add("busy");
    try {
      say("");
      await action();
    } catch (error) {
      say(error.message);
    } finally {
      attempts.busy = false;
      document.body.classList.remove("busy");
      after();
    }
  };
  return attempts;
}

// ---- drawing pieces ----

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}

// The engine's rule text marks names as **bold**; everything else is plain text.
export function rich(text) {
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
export function die(value, sides) {
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

export function percent(chance) {
  return `${(100 * chance).toFixed(1)}%`;
}

// The board: both players, the hidden parts and the server's status line (who moves with which dice, or who won).
export function drawBoard(container, board) {
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
export function drawTurn(container, turn) {
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

// Every turn, the latest first, into a list.
export function drawLog(container, turns) {
  container.replaceChildren(...turns.slice().reverse().map((turn) => {
    const item = el("li", {});
    drawTurn(item, turn);
    return item;
  }));
}

// A rule set's rules for players: the common rule, then its own as a list.
export function drawRules(container, rules) {
  container.replaceChildren(el("h3", {}, rules.title));
  const [common, ...own] = rules.text.split("\n").filter((line) => line.trim());
  container.append(el("p", {}, rich(common)));
  container.append(el("ul", {}, ...own.map((line) => el("li", {}, rich(line.replace(/^• /, ""))))));
}

// ---- choosing ----

export function keyOf(choice) {
  return choice === -1 ? "-" : String(choice);
}

// A button for each legal choice (labelled as on the Discord board, with its key), playing it when pressed.
export function choiceButtons(choices, disabled, play) {
  return choices.map((choice) => {
    const rolls = choice.dice ? `rolls ${choice.dice} ${choice.sides}-sided dice` : "rolls no dice";
    const button = el("button", { type: "button", class: choice.choice > 0 ? "roll" : "special", title: rolls },
                      el("span", { class: "label" }, choice.label),
                      el("kbd", { "aria-hidden": "true" }, keyOf(choice.choice)));
    button.disabled = disabled;
    button.addEventListener("click", () => play(choice.choice));
    return button;
  });
}

// Digits type a choice; it is played once no other legal choice starts with what was typed (so "1" waits for
// Enter, or for a "0" that makes 10, where 10 is legal); "-" plays -1. What a key does, given what was typed
// so far: the choice to play (or null), what stays typed, and what to say (or null); null for another key.
export function typed(key, sofar, choices) {
  const legal = choices.map((choice) => keyOf(choice.choice));
  if (key === "Escape") return { play: null, typed: "", say: null };
  if (key === "Enter") return { play: legal.includes(sofar) ? Number(sofar) : null, typed: "", say: null };
  if (key !== "-" && !/^[0-9]$/.test(key)) return null;
  const now = sofar + key;
  const longer = legal.some((choice) => choice !== now && choice.startsWith(now));
  if (legal.includes(now) && !longer) return { play: key === "-" ? -1 : Number(now), typed: "", say: null };
  if (!longer) return { play: null, typed: "", say: `No choice starts with ${now}.` };
  return { play: null, typed: now, say: null };
}

export const TYPED = (sofar) => (sofar ? `Typed ${sofar}: Enter plays it, another digit goes on.` : "");

// The solver's hint: each choice's exact chance to win for `who`, the best marked.
export function hintTable(found, who) {
  const rows = found.choices.map((choice) => el("tr", { class: choice.choice === found.best ? "best" : "" },
    el("th", { scope: "row" }, choice.label + (choice.choice === found.best ? " (best)" : "")),
    el("td", {}, percent(choice.chance))));
  return el("table", { class: "hint" },
    el("caption", {}, `${who}: your exact chance to win after each choice, both sides playing perfectly `
                      + `from then on (now ${percent(found.chance)})`),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Choice"),
                                 el("th", { scope: "col" }, "Chance to win"))),
    el("tbody", {}, ...rows));
}
