"""The page in real headless Chromium (Debian's, driven by Playwright): whole seeded games clicked through on
every rule set against a friend and against the perfect house, checked turn by turn against the engine;
keyboard play on a phone-sized window; the hint; a `/hog export` record in the viewer with its chart; and
requests the server refuses, shown on the page. Each stage is saved as a screenshot and checked non-blank."""

import hashlib
import json
import threading
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageStat
from playwright.sync_api import Browser, Page, sync_playwright

from hogengine.analysis import analyse
from hogengine.cli.turns import status_line
from hogengine.dice import commitment
from hogengine.errors import HogError
from hogengine.game import State, TurnResult, choice_label, new_game, resolve_seeded
from hogengine.house import HouseLevel, house_choice
from hogengine.replay import load_record, replay, to_record
from hogengine.rules import RULE_SETS
from hogengine.solver import solve
from tests.bot.web.conftest import scripted_choice
from tests.hang import HANG
from tests.helpers import Served

CHROMIUM = Path("/usr/bin/chromium")
# What Chromium needs here: no sandbox as root, and no calls home on a machine without a network. Each
# launch gets a fresh profile directory from Playwright.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESK = {"width": 1100, "height": 900}
PHONE = {"width": 390, "height": 844}
SEED = "0ddba11" + "0" * 57
RULES = [rules.id for rules in RULE_SETS]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert CHROMIUM.exists(), "Debian's chromium is missing: `apt-get install chromium` (.ci/run installs it)"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS, timeout=60_000)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("screenshots")


def opened(browser: Browser, url: str, size: dict[str, int] = DESK) -> Iterator[Page]:
    """A fresh tab on the page; no script error may happen in it."""
    context = browser.new_context(viewport=size)  # type: ignore[arg-type]
    page = context.new_page()
    page.set_default_timeout(15_000)
    failures: list[str] = []
    page.on("pageerror", lambda error: failures.append(str(error)))
    page.goto(url)
    page.wait_for_selector("#rules option", state="attached")  # the form is filled in
    yield page
    context.close()
    assert failures == []


@pytest.fixture
def page(browser: Browser, served: Served) -> Iterator[Page]:
    yield from opened(browser, served.url)


def shoot(page: Page, folder: Path, name: str) -> None:
    """Save this stage as a screenshot and check it shows something: many shades, not one colour."""
    path = folder / f"{name}.png"
    page.screenshot(path=path, full_page=True)
    with Image.open(path) as image:
        grey = image.convert("L")
        low, high = grey.getextrema()
        assert high - low > 150 and ImageStat.Stat(grey).stddev[0] > 10, f"{path} looks blank"


def settled(page: Page) -> None:
    page.wait_for_selector("body:not(.busy)")


def start(page: Page, rules: str, house: str = "", seed: str = SEED, goal: int = 100) -> None:
    page.get_by_label("Rule set").select_option(rules)
    page.get_by_label("Opponent").select_option(house)
    page.get_by_label("Goal").fill(str(goal))
    page.get_by_label("Dice seed").fill(seed)
    page.get_by_role("button", name="Start").click()
    page.wait_for_selector("#game:not([hidden])")
    settled(page)


def shown_board(page: Page) -> tuple[list[str], list[list[str]], list[str], str]:
    """The board as drawn: scores, each seat's hidden parts, the shared ones, and the status line."""
    cards = page.locator("#board .player")
    scores = [text.split()[0] for text in page.locator("#board .score").all_inner_texts()]
    hidden = [cards.nth(seat).locator(".hidden-part").all_inner_texts() for seat in (0, 1)]
    shared = page.locator("#board > .hidden-part").all_inner_texts()
    return scores, hidden, shared, page.locator("#board .status").inner_text()


def expected_board(state: State, names: tuple[str, str]) -> tuple[list[str], list[list[str]], list[str], str]:
    rules = state.ruleset
    return (
        [str(score) for score in state.scores],
        [list(rules.describe_hidden(state, seat)) for seat in (0, 1)],
        list(rules.describe_hidden(state, None)),
        status_line(state, names),
    )


@pytest.mark.parametrize("house", ["", HouseLevel.PERFECT.value], ids=["friend", "perfect"])
@pytest.mark.parametrize("rules", RULES)
def test_a_whole_seeded_game_clicked_through_is_the_engines_game(
    page: Page, screenshots: Path, solver_cache: Path, rules: str, house: str
) -> None:
    seed = bytes.fromhex(SEED)
    start(page, rules, house)
    names = ("Player 0", "Player 1") if not house else ("Player 0 (you)", f"Player 1 ({house})")
    assert page.locator("#commitment").inner_text() == commitment(seed)
    solution = solve(rules, 100, solver_cache) if house else None
    state = new_game(rules)
    results: list[TurnResult] = []
    while not state.over:
        assert shown_board(page) == expected_board(state, names)
        labels = [choice_label(state, choice) for choice in state.ruleset.choices]
        assert page.locator("#choices .label").all_inner_texts() == labels
        page.get_by_role("button", name=choice_label(state, scripted_choice(state)), exact=True).click()
        results.append(resolve_seeded(state, scripted_choice(state), seed))
        while house and not results[-1].after.over and results[-1].after.mover == 1:
            after = results[-1].after
            results.append(resolve_seeded(after, house_choice(HouseLevel(house), after, solution), seed))
        state = results[-1].after
        settled(page)
        last = results[-1]
        dice = page.locator(f"#last-turn svg.die.d{last.sides}")
        assert dice.count() == last.dice
        assert page.locator("#last-turn .events li").all_inner_texts() == [e.describe() for e in last.events]
    assert shown_board(page) == expected_board(state, names)
    assert page.locator("#seed-shown").inner_text() == SEED
    record = json.loads(page.locator("#record").input_value())
    assert record == to_record(new_game(rules), results, seed)
    assert list(replay(load_record(json.dumps(record))))[-1].after == state
    assert page.locator("#log > li").count() == len(results)
    assert page.locator("#choices button").count() == 0
    shoot(page, screenshots, f"over-{rules}-{house or 'friend'}")


def test_keyboard_play_on_a_phone_sized_window(browser: Browser, served: Served, screenshots: Path) -> None:
    for page in opened(browser, served.url, PHONE):
        shoot(page, screenshots, "phone-setup")
        start(page, RULES[1])  # Pork Chop: -1, and ten dice
        for key in ["-", "1", "0", "-", "1", "Enter", "1", "Escape", "7"]:
            page.keyboard.press(key)
            settled(page)
            if key == "1":
                assert page.locator("#typed").inner_text().startswith("Typed 1:")
        headings = page.locator("#log > li h3").all_inner_texts()
        assert headings[::-1] == [
            "Turn 1 · Player 0: Pork Chop",
            "Turn 2 · Player 1: Roll 10",
            "Turn 3 · Player 0: Roll 10 (-1)",  # Pork Chop is spent: -1 rolls ten dice now
            "Turn 4 · Player 1: Roll 1",
            "Turn 5 · Player 0: Roll 7",
        ]
        assert page.evaluate(
            "document.documentElement.scrollWidth <= window.innerWidth"
        )  # no sideways scroll
        for label in ["Pork Chop", "Free Bacon", "Roll 10", "Hint", "New game"]:
            box = page.get_by_role("button", name=label, exact=True).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert page.get_by_label("Open a record").count() == 1
        shoot(page, screenshots, "phone-game")


# Each choice of the setup form's dropdowns that would not show whole in its closed dropdown, measured in
# the dropdown's own font; its arrow and padding are left out of the room.
CUT_CHOICES = """() => {
  const pen = document.createElement("canvas").getContext("2d");
  return [...document.querySelectorAll("#setup-form select")].flatMap((select) => {
    const style = getComputedStyle(select);
    pen.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 24;
    const texts = [...select.options].map((option) => option.text);
    return texts.filter((text) => pen.measureText(text).width > room);
  });
}"""


def test_the_setup_form_shows_every_choice_whole_and_its_fields_in_line(
    browser: Browser, served: Served, screenshots: Path
) -> None:
    for page in opened(browser, served.url, {"width": 1200, "height": 900}):
        assert page.evaluate(CUT_CHOICES) == []
        boxes = [page.locator(field).bounding_box() for field in ("#goal", "#seed", "#start")]
        assert all(boxes) and len({(box["y"], box["height"]) for box in boxes if box}) == 1  # one row
        shoot(page, screenshots, "setup-desk")


def test_the_hint_shows_each_choices_exact_chance(page: Page, screenshots: Path, solver_cache: Path) -> None:
    start(page, RULES[0], HouseLevel.PERFECT.value)
    page.get_by_role("button", name="Roll 4", exact=True).click()
    settled(page)
    page.get_by_role("button", name="Hint").click()
    settled(page)
    state = resolve_seeded(new_game(RULES[0]), 4, bytes.fromhex(SEED)).after
    solution = solve(RULES[0], 100, solver_cache)
    while state.mover == 1 and not state.over:
        state = resolve_seeded(state, solution.best_choice(state), bytes.fromhex(SEED)).after
    best = solution.best_choice(state)
    rows = page.locator("table.hint tbody tr")
    shown = [(row.locator("th").inner_text(), row.locator("td").inner_text()) for row in rows.all()]
    assert shown == [
        (choice_label(state, choice) + (" (best)" if choice == best else ""), f"{100 * value:.1f}%")
        for choice, value in solution.choice_values(state).items()
    ]
    assert (
        f"now {100 * solution.win_probability(state):.1f}%" in page.locator("table.hint caption").inner_text()
    )
    shoot(page, screenshots, "hint")


def test_a_hog_export_is_watched_again_with_its_chart(
    browser: Browser, export_file: Path, solver_cache: Path, screenshots: Path
) -> None:
    server = Served("--replay", str(export_file), cache=solver_cache)
    try:
        for page in opened(browser, server.url):
            page.wait_for_selector("#viewer:not([hidden])")
            record = load_record(export_file.read_bytes())
            results = list(replay(record))
            series = analyse(record.start, results, solve(record.start.rules, 100, solver_cache)).series
            seed: Any = record.seed
            assert hashlib.sha256(seed).hexdigest() in page.locator("#verdict").inner_text()
            chart = page.get_by_role("img", name="alice's chance to win over")  # the export names her
            assert chart.count() == 1 and page.evaluate("document.getElementById('chart').naturalWidth") > 300
            assert page.locator("#position").inner_text() == (
                f"Before turn 1 (1 of {len(results)}). alice's chance to win: {100 * series[0]:.1f}%."
            )
            page.get_by_role("button", name="Next turn").click()
            page.keyboard.press("ArrowRight")
            assert page.locator("#position").inner_text().startswith(f"Before turn 3 (3 of {len(results)}).")
            assert page.locator("#view-board .score").all_inner_texts()[0].split()[0] == str(
                results[2].before.scores[0]
            )
            chosen = choice_label(results[2].before, results[2].choice)
            assert page.locator("#view-turn .cost").inner_text().startswith(f"Chose {chosen}: ")
            shoot(page, screenshots, "viewer")
            page.get_by_label("Turn", exact=True).fill(str(len(results)))
            assert page.locator("#position").inner_text().startswith("The end.")
            ended = status_line(results[-1].after, ("alice", "Hog Bot (perfect)"))
            assert page.locator("#view-board .status").inner_text() == ended
            rows = page.locator("#accuracy tbody tr").all_inner_texts()
            assert len(rows) == 2 and "100.0%" in rows[1]  # the perfect house bot gave nothing away
            shoot(page, screenshots, "viewer-end")
    finally:
        assert server.stop()[0] == 130


def test_what_the_server_refuses_is_said_on_the_page(
    page: Page, exported: dict[str, Any], export_file: Path, tmp_path: Path, screenshots: Path
) -> None:
    tampered = json.loads(json.dumps(exported))
    rolled = next(turn for turn in tampered["turns"] if turn["rolls"])
    rolled["rolls"][0] = 7 - rolled["rolls"][0]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(tampered), encoding="utf-8")
    with pytest.raises(HogError) as hog_replay:
        list(replay(load_record(path.read_bytes())))
    page.get_by_label("Open a record").set_input_files(path)
    alert = page.get_by_role("alert")
    alert.wait_for()
    assert alert.inner_text() == f"This record cannot be watched: {hog_replay.value}"
    assert page.locator("#viewer").is_hidden()
    shoot(page, screenshots, "refused-record")
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 300_000)
    page.get_by_label("Open a record").set_input_files(big)
    page.wait_for_selector("#message:text('larger than 256 KiB')")
    page.get_by_label("Open a record").set_input_files(export_file)
    page.wait_for_selector("#viewer:not([hidden])")
    assert alert.is_hidden()
    page.get_by_role("button", name="New game").click()
    start(page, RULES[0])
    page.route("**/moves", lambda route: route.continue_(post_data='{"turn": 0, "choice": 42}'))
    page.get_by_role("button", name="Roll 4", exact=True).click()  # sent by the page, as choice 42: no
    settled(page)  # button offers it
    page.unroute("**/moves")
    assert alert.inner_text() == "42 is not a legal choice under swine-align: choose 0 to 10."
    assert page.locator("#log > li").count() == 0  # nothing was played
    shoot(page, screenshots, "refused-move")


class _CutePigs(BaseHTTPRequestHandler):
    """Another web site's page, as the person may have one open: it sets no policy of its own."""

    def do_GET(self) -> None:
        body = b"<!doctype html><title>Cute pigs</title><p>Cute pigs!</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


@pytest.fixture(scope="module")
def other_site() -> Iterator[str]:
    """Another site on this machine: its own port (another origin), on loopback as the page's server is,
    so Chromium lets its scripts reach 127.0.0.1 and only the page's server stands in the way."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _CutePigs)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://localhost:{server.server_address[1]}/"
    server.shutdown()
    thread.join()


def _api(url: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the server answers the page's own request (a body is declared JSON, as the page declares it)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=HANG) as response:
        answer: dict[str, Any] = json.load(response)
    return answer


@pytest.mark.parametrize("declared", ["text/plain", "application/json"])
def test_another_sites_page_cannot_play_the_persons_game(
    browser: Browser, served: Served, other_site: str, declared: str
) -> None:
    """Another site's page posts a move to the person's game as any script can. Undeclared, Chromium sends
    it and the server refuses it; declared JSON, it needs a CORS permission the server never gives, so
    it is never sent. The game is as it was, and the script reads nothing."""
    game = _api(served.base + "api/games", {"rules": RULES[0]})
    target = served.base + f"api/games/{game['id']}/moves"
    context = browser.new_context()
    page = context.new_page()
    page.goto(other_site)
    read = page.evaluate(
        """async ([target, declared]) => {
            const body = JSON.stringify({turn: 0, choice: 3});
            const sent = {method: "POST", headers: {"Content-Type": declared}, body};
            try {
                return `read ${(await fetch(target, sent)).status}`;
            } catch (error) {
                return "nothing";
            }
        }""",
        [target, declared],
    )
    context.close()
    assert read == "nothing"
    assert _api(served.base + f"api/games/{game['id']}") == game


def test_the_coach_box_brings_the_coach_after_the_house_has_moved(
    browser: Browser, served: Served, screenshots: Path, solver_cache: Path
) -> None:
    for page in opened(browser, served.url, PHONE):
        start(page, "swine-align", HouseLevel.EASY.value)
        page.get_by_label("Coach").check()
        settled(page)
        assert page.locator("#coach li").all_inner_texts() == [
            "Nothing to say yet: no choice of yours has cost 5 points of winning chance."
        ]
        page.get_by_role("button", name="Roll 3", exact=True).click()  # 13 points given away at 0-0
        settled(page)
        said = page.locator("#coach li").all_inner_texts()
        state = new_game("swine-align")
        values = solve("swine-align", 100, solver_cache).choice_values(state)
        best = max(values, key=values.__getitem__)
        assert said[0] == (
            f"Turn 1: Roll 3 was a mistake against perfect play ({100 * values[3]:.1f}% to win); "
            f"{choice_label(state, best)} had {100 * values[best]:.1f}%."
        )
        shoot(page, screenshots, "coach")
        page.get_by_label("Coach").uncheck()
        settled(page)
        assert page.locator("#coach li").count() == 0
