"""Every endpoint of `hog gui` through aiohttp's test client: games played turn by turn as the engine plays
them, the house at every level, hints, records viewed with the bot's analysis, and every request the page
would never send refused with its words and a 4xx, never a traceback."""

import asyncio
import base64
import hashlib
import json
import logging
import socket
import struct
import threading
from collections.abc import AsyncIterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientResponse, web
from aiohttp.test_utils import TestClient, TestServer

from bot.images import win_probability_chart
from bot.services.solver import Solver
from bot.web import payloads
from bot.web.games import MAX_GAMES, Games
from bot.web.server import APOLOGY, MAX_BODY, make_app, make_runner
from hogengine import house
from hogengine.analysis import analyse, coaching
from hogengine.commentary import game_commentary
from hogengine.errors import HogError
from hogengine.game import TurnResult, choice_label, new_game, resolve_seeded
from hogengine.house import HOUSE_LEVELS, HouseLevel, house_choice
from hogengine.replay import load_record, replay, to_record
from hogengine.rules import DEFAULT_RULES, RULE_SETS
from hogengine.solver import Solution, solve
from tests.bot.web.conftest import scripted_choice

RULES = [rules.id for rules in RULE_SETS]
GONE = f"There is no such game here: this page keeps the {MAX_GAMES} games used last."
SEED = "5eed" * 16


@pytest.fixture
async def client(solver_cache: Path) -> AsyncIterator[TestClient[Any, Any]]:
    async with TestClient(TestServer(make_app(Solver(solver_cache), DEFAULT_RULES))) as test_client:
        yield test_client


async def refused(response: ClientResponse, status: int) -> str:
    """The words of a refusal: JSON {"error": ...} with this status, and nothing of the server's insides."""
    assert response.status == status, await response.text()
    assert response.content_type == "application/json"
    body = await response.json()
    assert list(body) == ["error"] and "Traceback" not in body["error"] and body["error"].endswith(".")
    return str(body["error"])


def send(client: TestClient[Any, Any], path: str, body: bytes, **headers: str) -> Any:
    """POST these bytes as the page sends a body: declared JSON (a header may be added or replaced)."""
    return client.post(path, data=body, headers={"Content-Type": "application/json"} | headers)


class Watched(Solver):
    """The server's solver, noting every (rules, goal) it is asked for."""

    def __init__(self, cache_dir: Path) -> None:
        super().__init__(cache_dir)
        self.asked: list[tuple[str, int]] = []

    async def solution(self, rules: str, goal: int) -> Solution:
        self.asked.append((rules, goal))
        return await super().solution(rules, goal)


async def start(client: TestClient[Any, Any], **fields: Any) -> dict[str, Any]:
    response = await client.post("/api/games", json={"rules": DEFAULT_RULES, "seed": SEED} | fields)
    assert response.status == 201, await response.text()
    game: dict[str, Any] = await response.json()
    return game


async def move(client: TestClient[Any, Any], game: dict[str, Any], choice: int) -> dict[str, Any]:
    response = await client.post(
        f"/api/games/{game['id']}/moves", json={"turn": game["board"]["turn"], "choice": choice}
    )
    assert response.status == 200, await response.text()
    played: dict[str, Any] = await response.json()
    return played


async def test_the_form_offers_every_rule_set_with_its_rules_and_the_house_levels(client):
    setup = await (await client.get("/api/setup")).json()
    assert [rules["id"] for rules in setup["rules"]] == RULES
    assert [rules["text"] for rules in setup["rules"]] == [rules.explain() for rules in RULE_SETS]
    assert setup["default"] == DEFAULT_RULES and setup["max_goal"] == 100 and setup["record"] is False
    levels = [{"id": level.value, "description": level.description} for level in HOUSE_LEVELS]
    assert setup["levels"] == levels and [level["id"] for level in levels] == ["easy", "course", "perfect"]


async def test_the_readme_offers_the_goals_the_page_plays(client):
    readme = " ".join((Path(__file__).parents[3] / "README.md").read_text(encoding="utf-8").split())
    most = (await (await client.get("/api/setup")).json())["max_goal"]
    assert f"The seed's browser game: any rule set to any goal from 1 to {most} " in readme
    for goal, status in ((1, 201), (most, 201), (most + 1, 400)):
        response = await client.post("/api/games", json={"rules": DEFAULT_RULES, "goal": goal})
        assert response.status == status


@pytest.mark.parametrize("rules", RULES)
async def test_a_seeded_game_between_friends_is_the_engines_game_turn_by_turn(client, rules):
    seed = bytes.fromhex(SEED)
    game = await start(client, rules=rules, goal=60)
    state = new_game(rules, 60)
    assert game["commitment"] == hashlib.sha256(seed).hexdigest()
    assert game["board"] == payloads.board(state, ("Player 0", "Player 1"))
    results: list[TurnResult] = []
    while not state.over:
        assert game["your_turn"]  # a friend's turn is a person's too
        assert game["seed"] is None and game["record"] is None  # the seed stays secret while it is played
        choice = scripted_choice(state)
        game = await move(client, game, choice)
        results.append(resolve_seeded(state, choice, seed))
        state = results[-1].after
        assert game["turns"] == payloads.turns(results, ("Player 0", "Player 1"))  # the engine's turns
        last = game["turns"][-1]
        assert (last["rolls"], last["points"]) == (list(results[-1].outcomes), results[-1].points)
        assert last["events"] == [event.describe() for event in results[-1].events]
        said = game_commentary(results)[-1]  # the course's commentary, true to the turn
        assert last["commentary"] == list(said)
        assert last["number"] == len(results)  # turns are numbered from 1, as everywhere
        assert game["board"]["players"][0]["hidden"] == list(state.ruleset.describe_hidden(state, 0))
        assert game["board"]["players"][1]["score"] == state.scores[1]
    assert (
        game["board"]["over"] and game["board"]["winner"] == state.winner and game["board"]["choices"] == []
    )
    assert game["seed"] == SEED and not game["your_turn"]
    assert game["record"] == to_record(new_game(rules, 60), results, seed)
    assert [r.after for r in replay(load_record(json.dumps(game["record"])))][-1] == state


@pytest.mark.parametrize("level", HOUSE_LEVELS)
@pytest.mark.parametrize("rules", RULES)
async def test_the_house_answers_every_move_at_once_at_its_level(client, solver_cache, rules, level):
    game = await start(client, rules=rules, house=level.value)
    names = [player["name"] for player in game["board"]["players"]]
    assert names == ["Player 0 (you)", f"Player 1 ({level.value})"]
    solution = solve(rules, 100, solver_cache) if level is HouseLevel.PERFECT else None
    while not game["board"]["over"]:
        assert game["board"]["mover"] == 0 and game["your_turn"]  # the person's, whenever answered
        game = await move(client, game, 4)
    assert not game["your_turn"]
    record = load_record(json.dumps(game["record"]))
    house = [result for result in replay(record) if result.player == 1]
    assert house and all(r.choice == house_choice(level, r.before, solution) for r in house)


async def test_the_course_house_has_its_table_made_off_the_event_loop(
    solver_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The course house's first move of a rule set needs the course's table (10,000 calls of the course's
    function, a fraction of a second): it is made on a worker thread as the game starts, as the bot's house
    has it, never on the event loop that serves every request."""
    made_on: list[str] = []
    make = house.course_table.__wrapped__

    @cache
    def watched(rules: str) -> Any:
        made_on.append(threading.current_thread().name)
        return make(rules)

    monkeypatch.setattr(house, "course_table", watched)  # the one the house plays by
    monkeypatch.setattr("bot.services.solver.course_table", watched)  # the one the solver makes
    async with TestClient(TestServer(make_app(Solver(solver_cache), DEFAULT_RULES))) as client:
        game = await start(client, rules="pig-fest", house="course")
        played = await move(client, game, 0)
    assert played["board"]["turn"] >= 2  # the house answered with the course's choice
    assert len(made_on) == 1 and made_on != [threading.main_thread().name]


@pytest.mark.parametrize(("house", "after_a_move"), [(None, True), (HouseLevel.EASY, False)])
def test_the_page_may_move_only_while_a_person_is_to_move(house, after_a_move):
    game = Games().start(new_game(DEFAULT_RULES), bytes.fromhex(SEED), house)
    assert payloads.game(game)["your_turn"]
    game.play(4)  # player 0 moves, the house not (yet) answering
    assert payloads.game(game)["your_turn"] is after_a_move


async def test_the_hint_is_every_choices_exact_chance_for_the_player_to_move(client, solver_cache):
    game = await start(client, rules=RULES[1], house="course")
    game = await move(client, game, -1)  # Pork Chop: from now on -1 rolls ten dice
    hint = await (await client.get(f"/api/games/{game['id']}/hint")).json()
    now = resolve_seeded(new_game(RULES[1]), -1, bytes.fromhex(SEED)).after
    while now.mover == 1:  # the house's answer
        now = resolve_seeded(now, house_choice(HouseLevel.COURSE, now), bytes.fromhex(SEED)).after
    solution = solve(RULES[1], 100, solver_cache)
    assert hint["turn"] == now.turn == game["board"]["turn"]
    assert hint["best"] == solution.best_choice(now) and hint["chance"] == solution.win_probability(now)
    assert hint["choices"] == [
        {"choice": choice, "label": choice_label(now, choice), "chance": value}
        for choice, value in solution.choice_values(now).items()
    ]
    assert hint["choices"][0]["label"] == "Roll 10 (-1)"


async def test_no_hint_once_the_game_is_over_and_no_solve_for_it(solver_cache):
    solver = Watched(solver_cache)
    async with TestClient(TestServer(make_app(solver, DEFAULT_RULES))) as client:
        game = await start(client, rules="pig-fest", goal=1)
        game = await move(client, game, 1)
        assert game["board"]["over"]
        response = await client.get(f"/api/games/{game['id']}/hint")
        assert await refused(response, 409) == "This game is over: no hints needed."
        assert solver.asked == []


async def test_a_reloaded_page_gets_the_game_as_it_is(client):
    game = await move(client, await start(client), 3)
    again = await (await client.get(f"/api/games/{game['id']}")).json()
    assert again == game


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"turn": 0, "choice": 11}, 400, "11 is not a legal choice under swine-align: choose 0 to 10."),
        ({"turn": 0, "choice": -1}, 400, "-1 is not a legal choice under swine-align: choose 0 to 10."),
        ({"turn": 0, "choice": "3"}, 400, "'3' is not a legal choice under swine-align: choose 0 to 10."),
        ({"turn": 0, "choice": 3.0}, 400, "3.0 is not a legal choice under swine-align: choose 0 to 10."),
        ({"turn": 0, "choice": True}, 400, "True is not a legal choice under swine-align: choose 0 to 10."),
        ({"turn": 0, "choice": None}, 400, "None is not a legal choice under swine-align: choose 0 to 10."),
        ({"turn": 7, "choice": 3}, 400, "That turn has not come yet: the game is on turn 0."),
        ({"turn": "0", "choice": 3}, 400, 'Send a JSON object like {"turn": 0, "choice": 4}.'),
        ({"turn": 0}, 400, 'Send a JSON object like {"turn": 0, "choice": 4}.'),
        ({"turn": 0, "choice": 3, "seed": "00"}, 400, 'Send a JSON object like {"turn": 0, "choice": 4}.'),
        ([0, 3], 400, 'Send a JSON object like {"turn": 0, "choice": 4}.'),
    ],
)
async def test_a_move_the_rules_or_the_board_forbid_is_refused_in_words(client, body, status, words):
    game = await start(client)
    response = await client.post(f"/api/games/{game['id']}/moves", json=body)
    assert await refused(response, status) == words
    assert await (await client.get(f"/api/games/{game['id']}")).json() == game  # nothing was played


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"{",
        b"\xff\xfe{}",
        b'{"turn": 0, "turn": 0, "choice": 3}',
        b'{"turn": 0, "choice": ' + b"9" * 700 + b"}",
        b"[" * 100_000 + b"]" * 100_000,
        b"null",
        b'"turn"',
    ],
    ids=["empty", "cut", "not-utf8", "key-twice", "long-number", "nested", "null", "string"],
)
async def test_a_body_that_is_not_a_move_is_refused(client, body):
    game = await start(client)
    response = await send(client, f"/api/games/{game['id']}/moves", body)
    assert await refused(response, 400) == 'Send a JSON object like {"turn": 0, "choice": 4}.'


async def test_a_turn_played_twice_or_after_the_end_is_refused(client):
    game = await start(client, goal=30)
    stale = {"turn": 0, "choice": 2}
    game = await move(client, game, 2)
    assert not game["board"]["over"]
    response = await client.post(f"/api/games/{game['id']}/moves", json=stale)
    assert await refused(response, 409) == "That turn was already played."
    while not game["board"]["over"]:
        game = await move(client, game, 6)
    late = {"turn": game["board"]["turn"], "choice": 6}
    response = await client.post(f"/api/games/{game['id']}/moves", json=late)
    assert await refused(response, 409) == "This game is over."


@pytest.mark.parametrize("path", ["/api/games/forged", "/api/games/forged/hint"])
async def test_a_game_this_server_never_started_is_not_found(client, path):
    assert await refused(await client.get(path), 404) == GONE
    response = await client.post("/api/games/forged/moves", json={"turn": 0, "choice": 3})
    assert await refused(response, 404) == GONE


async def test_the_game_left_alone_longest_is_forgotten_not_the_one_being_played(client):
    playing, idle = await start(client), await start(client)
    for _ in range(MAX_GAMES - 2):
        await start(client)
    playing = await move(client, playing, 3)  # the person plays on while others start games
    await start(client)
    assert await refused(await client.get(f"/api/games/{idle['id']}"), 404) == GONE
    assert await (await client.get(f"/api/games/{playing['id']}")).json() == playing


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"rules": "chess"}, "Unknown rules 'chess'. Known rule sets: "),
        ({"rules": 4}, "Send a JSON object like {"),
        ({"goal": 0}, "The goal must be a whole number from 1 to 100."),
        ({"goal": 101}, "The goal must be a whole number from 1 to 100."),
        ({"goal": "100"}, "The goal must be a whole number from 1 to 100."),
        ({"goal": 99.5}, "The goal must be a whole number from 1 to 100."),
        ({"house": "godlike"}, "Unknown bot level 'godlike': choose easy, course, perfect."),
        ({"house": 3}, "Unknown bot level '3': choose easy, course, perfect."),
        ({"house": "strategy"}, "Unknown bot level 'strategy': choose easy, course, perfect."),  # none stored
        ({"seed": "xyz"}, "The seed must be a non-empty string of hex digits (two per byte)."),
        ({"seed": ""}, "The seed must be a non-empty string of hex digits (two per byte)."),
        ({"seed": 255}, "The seed must be a non-empty string of hex digits (two per byte)."),
        ({"colour": "red"}, "Send a JSON object like {"),
    ],
)
async def test_a_game_that_cannot_be_played_is_not_started(client, fields, words):
    response = await client.post("/api/games", json={"rules": DEFAULT_RULES} | fields)
    assert (await refused(response, 400)).startswith(words)


async def test_a_request_larger_than_any_record_is_refused(client):
    response = await send(client, "/api/replay", b" " * (MAX_BODY + 1))
    assert await refused(response, 413) == "The request is larger than 256 KiB: no game record is that long."


PIG_FEST_RECORD = json.dumps({"rules": "pig-fest", "goal": 97, "turns": [{"choice": 3, "rolls": [2, 3, 4]}]})
NOT_OUR_PAGE = "This server answers only its own page, at 127.0.0.1 or localhost."
NOT_JSON = "Send the request body as JSON, with Content-Type: application/json."


@pytest.mark.parametrize(
    ("headers", "status", "words"),
    [
        ({"Origin": "http://evil.example", "Content-Type": "text/plain"}, 403, NOT_OUR_PAGE),
        ({"Origin": "http://evil.example"}, 403, NOT_OUR_PAGE),
        ({"Origin": "null"}, 403, NOT_OUR_PAGE),  # a sandboxed frame, a file:// page
        ({"Origin": "http://127.0.0.1:1"}, 403, NOT_OUR_PAGE),  # another port is another site's page
        ({"Sec-Fetch-Site": "cross-site"}, 403, NOT_OUR_PAGE),
        ({"Sec-Fetch-Site": "same-site"}, 403, NOT_OUR_PAGE),
        ({"Content-Type": "text/plain"}, 415, NOT_JSON),  # what a cross-site form or simple fetch can send
        ({"Content-Type": "application/x-www-form-urlencoded"}, 415, NOT_JSON),
        ({"Content-Type": "multipart/form-data; boundary=x"}, 415, NOT_JSON),
    ],
    ids=[
        "simple-post",
        "origin",
        "null-origin",
        "other-port",
        "cross-site",
        "same-site",
        "text",
        "form",
        "multi",
    ],
)
async def test_another_sites_page_can_neither_start_games_nor_make_the_server_solve(
    solver_cache, headers, status, words
):
    """Any page the person visits could send requests to 127.0.0.1: the server does nothing for them."""
    solver = Watched(solver_cache)
    async with TestClient(TestServer(make_app(solver, DEFAULT_RULES))) as page:
        game = await start(page, house="easy")
        new_game_body = json.dumps({"rules": "pig-fest", "goal": 98, "house": "perfect"}).encode()
        assert await refused(await send(page, "/api/games", new_game_body, **headers), status) == words
        assert (
            await refused(await send(page, "/api/replay", PIG_FEST_RECORD.encode(), **headers), status)
            == words
        )
        played = await send(page, f"/api/games/{game['id']}/moves", b'{"turn": 0, "choice": 3}', **headers)
        assert await refused(played, status) == words
        assert await (await page.get(f"/api/games/{game['id']}")).json() == game  # nothing was played
        assert solver.asked == []


@pytest.mark.parametrize("fetch_site", ["cross-site", "same-site"])
async def test_another_sites_page_cannot_ask_for_a_hint(client, fetch_site):
    game = await start(client)
    response = await client.get(f"/api/games/{game['id']}/hint", headers={"Sec-Fetch-Site": fetch_site})
    assert await refused(response, 403) == NOT_OUR_PAGE


async def test_the_pages_own_requests_are_served_as_its_browser_sends_them(client):
    own = {"Origin": f"http://127.0.0.1:{client.port}", "Sec-Fetch-Site": "same-origin"}
    body = json.dumps({"rules": DEFAULT_RULES, "seed": SEED}).encode()
    response = await send(
        client, "/api/games", body, **own, **{"Content-Type": "application/json; charset=utf-8"}
    )
    assert response.status == 201, await response.text()
    game = await response.json()
    hint = await client.get(f"/api/games/{game['id']}/hint", headers={"Sec-Fetch-Site": "same-origin"})
    assert hint.status == 200
    typed = await client.get(
        "/", headers={"Sec-Fetch-Site": "none"}
    )  # the address typed or opened by hog gui
    assert typed.status == 200


@pytest.mark.parametrize(
    "host",
    [
        "evil.example:80",
        "127.0.0.1:1.evil.example",  # a name that starts like ours: a port is digits only
        "localhost:1@evil.example",
        "localhost.evil.example",
        "127.0.0.1.nip.io",
        "localhost:",
        "localhost:80:80",
        "localhost:123456",
        "localhost:+80",
        "localhost:٨٠",  # digits, but not ASCII ones
        "LOCALHOST",
        "",
    ],
)
async def test_a_request_to_another_host_name_is_refused(client, host):
    """A web site that points its own name at 127.0.0.1 (DNS rebinding) gets nothing from the server."""
    response = await client.get("/api/setup", headers={"Host": host})
    assert await refused(response, 403) == NOT_OUR_PAGE


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "localhost:8080", "127.0.0.1:1"])
async def test_the_pages_own_names_are_served(client, host):
    assert (await client.get("/api/setup", headers={"Host": host})).status == 200


async def raw(port: int, head: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection to the server with these request lines sent as they are (no header added)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(head.encode())
    await writer.drain()
    return reader, writer


@pytest.mark.parametrize(("version", "status"), [("1.1", 400), ("1.0", 403)])
async def test_a_request_naming_no_host_is_refused(client, caplog, version, status):
    """HTTP/1.1 requires a Host (aiohttp refuses it itself), HTTP/1.0 does not (the server refuses it); the
    client's fault is no error in the server's log."""
    caplog.set_level(logging.DEBUG)
    reader, writer = await raw(client.port, f"GET /api/setup HTTP/{version}\r\nConnection: close\r\n\r\n")
    answer = await reader.read()
    writer.close()
    assert answer.split(b" ", 2)[1] == str(status).encode()
    assert (NOT_OUR_PAGE.encode() in answer) == (status == 403)
    assert [record for record in caplog.records if record.levelno >= logging.WARNING] == []
    assert "Traceback" not in caplog.text


GIVE_UP_SECONDS = 30.0  # a wait for the server's log that fails the test rather than hang it


async def logged(caplog: pytest.LogCaptureFixture, name: str) -> list[logging.LogRecord]:
    """The records of logger `name`, once there is one."""
    while not (found := [record for record in caplog.records if record.name == name]):
        await asyncio.sleep(0.01)
    return found


@pytest.mark.parametrize("reset", [True, False], ids=["reset", "closed"])
async def test_a_client_that_gives_up_mid_upload_is_one_debug_line(solver_cache, caplog, reset):
    """Closing the connection half-way through a body is the client's choice, not a server failure: no
    error, no traceback, no answer attempted; one DEBUG line says what happened. (Served as `hog gui`
    serves it: aiohttp's test server would cancel the request instead.)"""
    caplog.set_level(logging.DEBUG)
    runner = make_runner(make_app(Solver(solver_cache), DEFAULT_RULES))
    await runner.setup()
    try:
        listener = socket.create_server(("127.0.0.1", 0))
        port = listener.getsockname()[1]
        await web.SockSite(runner, listener).start()
        head = (
            f"POST /api/replay HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: application/json\r\nContent-Length: 1000\r\nExpect: 100-continue\r\n\r\n"
        )
        reader, writer = await raw(port, head)
        assert (await reader.readline()).startswith(b"HTTP/1.1 100 Continue")  # its handler is reading
        writer.write(b'{"rules": ')
        await writer.drain()
        if reset:
            linger = struct.pack("ii", 1, 0)
            writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
        writer.close()
        ours = await asyncio.wait_for(logged(caplog, "bot.web.server"), GIVE_UP_SECONDS)
    finally:
        await runner.cleanup()
    assert [(record.levelno, record.getMessage()) for record in ours] == [
        (logging.DEBUG, "POST /api/replay: the client closed the connection")
    ]
    assert [record for record in caplog.records if record.levelno >= logging.WARNING] == []
    assert "Traceback" not in caplog.text


async def test_unknown_addresses_and_methods_are_refused(client):
    assert await refused(await client.get("/api/nothing"), 404) == "Not Found: GET /api/nothing."
    assert await refused(await client.delete("/api/setup"), 405) == "Method Not Allowed: DELETE /api/setup."
    response = await client.get("/static/%2e%2e/server.py")
    assert response.status == 404 and "make_app" not in await response.text()


async def test_an_unexpected_failure_is_logged_and_answered_with_an_apology(client, monkeypatch, caplog):
    def broken(game: object) -> dict[str, Any]:
        raise RuntimeError("a bug")

    monkeypatch.setattr(payloads, "game", broken)
    with caplog.at_level(logging.ERROR, logger="bot.web.server"):
        response = await client.post("/api/games", json={"rules": DEFAULT_RULES})
    assert await refused(response, 500) == APOLOGY
    assert "a bug" in caplog.text and "POST /api/games failed" in caplog.text


async def test_the_page_and_its_files_are_served_under_a_strict_policy(client):
    page = await client.get("/")
    assert page.status == 200 and '<script src="/static/app.js" type="module"></script>' in await page.text()
    assert page.headers["Content-Security-Policy"].startswith("default-src 'self'")
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    files = [
        ("app.js", "javascript"),
        ("draw.js", "javascript"),
        ("style.css", "text/css"),
        ("favicon.svg", "image/svg"),
    ]
    for name, kind in files:
        response = await client.get(f"/static/{name}")
        assert response.status == 200 and kind in response.content_type


async def test_a_hog_export_is_viewed_with_the_bots_analysis_and_chart(client, solver_cache, export_file):
    response = await send(client, "/api/replay", export_file.read_bytes())
    assert response.status == 200, await response.text()
    viewed = await response.json()
    record = load_record(export_file.read_bytes())
    results = list(replay(record))
    analysis = analyse(record.start, results, solve(record.start.rules, record.start.goal, solver_cache))
    assert len(viewed["steps"]) == len(results)
    assert [step["chance"] for step in viewed["steps"]] + [viewed["end"]["chance"]] == list(analysis.series)
    assert viewed["end"]["chance"] == (1.0 if results[-1].after.winner == 0 else 0.0)
    names = ("alice", "Hog Bot (perfect)")  # an export names its players; the viewer calls them so
    assert record.players == names and viewed["names"] == list(names)
    assert [step["board"] for step in viewed["steps"]] == [payloads.board(r.before, names) for r in results]
    assert viewed["end"]["board"] == payloads.board(results[-1].after, names)
    costs = [
        (result.player, step["move"]["cost"]) for result, step in zip(results, viewed["steps"], strict=True)
    ]
    assert all(cost >= 0 for _, cost in costs)
    assert [cost for player, cost in costs if player == 1] == [0.0] * sum(1 for p, _ in costs if p == 1)
    assert viewed["players"][1]["accuracy"] == 100.0  # the house bot played perfectly
    assert viewed["players"][0]["lost"] == pytest.approx(sum(cost for player, cost in costs if player == 0))
    seed = json.loads(export_file.read_text())["seed"]
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() in viewed["verdict"]
    assert viewed["verdict"].startswith("Fair dice: every roll is the one the revealed seed gives")
    mistakes = [move.turn for move in analysis.players[0].mistakes]  # player 0's, marked on their line
    assert mistakes
    chart = win_probability_chart(analysis.series, names, 0, mistakes)
    assert viewed["chart"]["alt"] == chart.alt
    assert base64.b64decode(viewed["chart"]["src"].removeprefix("data:image/png;base64,")) == chart.png


async def test_a_record_without_its_seed_is_viewed_but_its_dice_are_not_vouched_for(client, exported):
    unsealed = {key: value for key, value in exported.items() if key not in ("seed", "commitment")}
    viewed = await (await client.post("/api/replay", json=unsealed)).json()
    assert viewed["verdict"] == "The record reveals no dice seed, so its rolls cannot be checked."


def _tampered(exported: dict[str, Any]) -> dict[str, bytes]:
    rolled = next(i for i, turn in enumerate(exported["turns"]) if turn["rolls"])
    wrong_roll = json.loads(json.dumps(exported))
    wrong_roll["turns"][rolled]["rolls"][0] = 7 - wrong_roll["turns"][rolled]["rolls"][0]
    after_the_end = exported | {"turns": [*exported["turns"], {"choice": 3}]}
    return {
        "wrong-roll": json.dumps(wrong_roll).encode(),
        "wrong-commitment": json.dumps(exported | {"commitment": "00" * 32}).encode(),
        "after-the-end": json.dumps(after_the_end).encode(),
        "score-past-goal": json.dumps(exported | {"score": [150, 0]}).encode(),
        "unknown-key": json.dumps(exported | {"winner": 0}).encode(),
        "not-json": b"hog-match-1.json",
        "not-utf8": b"\xff" + json.dumps(exported).encode(),
        "empty": b"",
    }


@pytest.mark.parametrize(
    "case",
    [
        "wrong-roll",
        "wrong-commitment",
        "after-the-end",
        "score-past-goal",
        "unknown-key",
        "not-json",
        "not-utf8",
        "empty",
    ],
)
async def test_a_record_hog_replay_refuses_is_refused_in_its_words(client, exported, case):
    body = _tampered(exported)[case]
    with pytest.raises(HogError) as hog_replay:
        list(replay(load_record(body)))
    assert await refused(await send(client, "/api/replay", body), 400) == str(hog_replay.value)


async def test_a_record_starting_from_any_scores_is_commented_from_them(client):
    """From 90 to 0, Player 0 already leads: scoring 5 is a gain record, not a new lead of 95."""
    record = {"rules": DEFAULT_RULES, "score": [90, 0], "turns": [{"choice": 1, "rolls": [5]}]}
    response = await send(client, "/api/replay", json.dumps(record).encode())
    assert response.status == 200, await response.text()
    [step] = (await response.json())["steps"]
    assert step["turn"]["scores"] == [95, 0]
    assert step["turn"]["commentary"] == ["5 point(s)! The most yet for Player 0"]


async def test_the_command_lines_record_is_offered_to_the_page(solver_cache, export_file):
    app = make_app(Solver(solver_cache), DEFAULT_RULES, export_file.read_bytes())
    async with TestClient(TestServer(app)) as with_record:
        assert (await (await with_record.get("/api/setup")).json())["record"] is True
        viewed = await (await with_record.get("/api/replay")).json()
        sent = await (await send(with_record, "/api/replay", export_file.read_bytes())).json()
        assert viewed == sent


async def test_without_a_record_there_is_nothing_to_view(client):
    assert (await client.get("/api/replay")).status == 404


async def coach(client: TestClient[Any, Any], game: dict[str, Any]) -> dict[str, Any]:
    response = await client.get(f"/api/games/{game['id']}/coach")
    assert response.status == 200, await response.text()
    said: dict[str, Any] = await response.json()
    return said


async def test_the_coach_grades_the_persons_choices_once_the_house_has_answered(client, solver_cache):
    game = await start(client, house="easy", goal=60)
    seed, solution = bytes.fromhex(SEED), solve(DEFAULT_RULES, 60, solver_cache)
    state, results = new_game(DEFAULT_RULES, 60), []
    assert await coach(client, game) == {"lines": [], "summary": []}
    while not game["board"]["over"]:
        game = await move(client, game, 10)  # ten dice every turn: graded often
        while len(results) < len(game["turns"]):  # the person's turn, and the house's (easy: 4 dice)
            results.append(resolve_seeded(state, 10 if state.mover == 0 else 4, seed))
            state = results[-1].after
        said = await coach(client, game)
        expected = coaching(solution, results, [0])  # only the person's, and only once answered
        assert said["lines"] == [{"turn": line.turn, "text": line.text} for line in expected]
    assert said["lines"] and len(said["summary"]) == 1
    assert said["summary"][0].startswith("Your game against perfect play: accuracy ")


async def test_between_friends_the_coach_speaks_to_each_by_name(client, solver_cache):
    game = await start(client, goal=30)
    while not game["board"]["over"]:
        game = await move(client, game, 10)
    said = await coach(client, game)
    assert all(line["text"].startswith(("Player 0: Turn ", "Player 1: Turn ")) for line in said["lines"])
    assert [line[:9] for line in said["summary"]] == ["Player 0:", "Player 1:"]
