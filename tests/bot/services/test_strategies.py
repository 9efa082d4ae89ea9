"""Uploads: checked before they run, evaluated in the sandbox off the event loop, stored with exact
figures, rationed by a cooldown, replaced with history, deleted by their owner only."""

import asyncio
import json

import numpy as np
import pytest

from bot.domain.errors import (
    NameTaken,
    NotYourStrategy,
    OnCooldown,
    StrategyNotFound,
    StrategyRefused,
    TooManyStrategies,
    UploadRefused,
    UploadsBusy,
    UploadStopped,
    UploadsUnavailable,
    WrongRules,
)
from bot.services import GameService, HouseLevel
from bot.services.ratings import RatingService
from bot.services.strategies.service import StrategyService, strategy_name
from bot.services.tournaments.service import TournamentService
from bot.storage import Database
from bot.storage.strategies import table_bytes
from hogengine.errors import UnknownRules
from hogengine.sandbox import SandboxUnavailable, evaluate_strategy
from hogengine.solver import exact_winrate, solve
from hogengine.strategies import always_roll, table_from_function
from tests.helpers import (
    ALICE,
    BOB,
    BUSY_ROLL_4,
    CAROL,
    CHANNEL,
    GUILD,
    ROLL_4,
    FakeClock,
    Gate,
    PlayOut,
    run_tournament,
    upload_file,
    upload_limits,
)

RULES = "swine-align"
SCORE_MOD = b"def final_strategy(score, opponent_score):\n    return score % 11\n"


def json_upload(table: np.ndarray) -> bytes:
    return json.dumps(table.tolist()).encode()


async def test_python_upload_is_stored_with_exact_figures(strategies: StrategyService) -> None:
    upload = await upload_file(strategies, GUILD, ALICE, "mod.py", SCORE_MOD)
    stored = upload.strategy
    expected = np.fromfunction(lambda score, _: score % 11, (100, 100), dtype=int).astype(np.int8)
    assert stored.table is not None and np.array_equal(stored.table, expected)
    assert (stored.name, stored.owner, stored.rules, stored.source_kind) == ("mod", ALICE, RULES, "py")
    assert stored.active and stored.cpu_seconds is not None
    assert upload.replaced is None and upload.duplicate_of is None
    opponents = {f"always_roll({n})": table_from_function(always_roll(n), RULES) for n in (4, 5, 6)}
    opponents["perfect"] = solve(RULES).policy  # full-state optimal play, as vs-bot level:perfect
    assert [figure.opponent for figure in stored.figures] == list(opponents)
    for figure in stored.figures:
        rate = exact_winrate(RULES, expected, opponents[figure.opponent])
        assert (figure.first, figure.second, figure.average) == pytest.approx(
            (rate.first, rate.second, rate.average), abs=1e-12
        )
    assert await strategies.show(GUILD, "MOD") == stored


async def test_the_perfect_bot_of_the_figures_sees_the_hidden_state(strategies: StrategyService) -> None:
    table = table_from_function(always_roll(6), "pork-chop")
    upload = await upload_file(strategies, GUILD, ALICE, "six.json", json_upload(table), rules="pork-chop")

    (perfect,) = [figure for figure in upload.strategy.figures if figure.opponent == "perfect"]
    rate = exact_winrate("pork-chop", table, solve("pork-chop").policy)  # the vs-bot perfect level's play
    assert (perfect.first, perfect.second) == pytest.approx((rate.first, rate.second), abs=1e-12)


async def test_json_upload_is_accepted(strategies: StrategyService) -> None:
    table = table_from_function(always_roll(5), RULES)
    upload = await upload_file(
        strategies, GUILD, BOB, "five.json", json_upload(table), name="Fiver", rules="fa20"
    )
    assert upload.strategy.source_kind == "json" and upload.strategy.cpu_seconds is None
    assert upload.strategy.rules == RULES and upload.strategy.name == "Fiver"
    assert upload.strategy.table is not None and np.array_equal(upload.strategy.table, table)
    five = next(figure for figure in upload.strategy.figures if figure.opponent == "always_roll(5)")
    assert five.first + five.second == pytest.approx(
        1.0
    )  # against itself: one seat's win is the other's loss


REFUSALS = [
    ("syntax_error", b"def final_strategy(s, o):\n    return (\n", "syntax_error"),
    ("missing", b"def other(s, o):\n    return 4\n", "no_final_strategy"),
    ("signature", b"def final_strategy(s):\n    return 4\n", "wrong_signature"),
    ("raises", b"def final_strategy(s, o):\n    return 4 if s != 50 else 1 // 0\n", "exception"),
    ("illegal", b"def final_strategy(s, o):\n    return 11\n", "illegal_value"),
    ("slow", b"def final_strategy(s, o):\n    while True:\n        pass\n", "too_slow"),
    ("forbidden", b"import os\nos.fork()\n" + ROLL_4, "forbidden"),
    (
        "random",
        b"import random\ndef final_strategy(s, o):\n    return random.randrange(11)\n",
        "not_deterministic",
    ),
    ("not_utf8", b"# \xff\xfe\n" + ROLL_4, "not_utf8"),
]


@pytest.mark.parametrize(
    ("source", "kind"), [(s, k) for _, s, k in REFUSALS], ids=[i for i, _, _ in REFUSALS]
)
async def test_refusals_carry_the_sandbox_verdict(
    db: Database, clock: FakeClock, source: bytes, kind: str
) -> None:
    limits = upload_limits(cooldown_seconds=0.0, time_limit=0.5)
    service = StrategyService(db, clock, limits)
    try:
        with pytest.raises(StrategyRefused) as refused:
            await upload_file(service, GUILD, ALICE, "bad.py", source)
    finally:
        service.close()
    verdict = evaluate_strategy(source, range(11), 0.5)
    assert refused.value.kind == verdict.kind == kind
    if kind not in {"too_slow", "not_deterministic"}:  # their text names CPU times or random values
        assert refused.value.reason == verdict.reason
    assert await service.active(GUILD) == []


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"rows": []}', "list of 100 rows"),
        ("/etc/passwd", "not valid JSON"),  # never read as a path
        ("[[4]]", "list of 100 rows"),
        (json.dumps([[4] * 100] * 99 + [[4] * 99 + [12]]), "row 99, column 99"),
        ("[1, 2", "not valid JSON"),
    ],
)
async def test_bad_json_tables_are_refused(strategies: StrategyService, text: str, words: str) -> None:
    with pytest.raises(StrategyRefused, match=words) as refused:
        await upload_file(strategies, GUILD, ALICE, "table.json", text.encode())
    assert refused.value.kind == "bad_table"


@pytest.mark.parametrize(
    ("filename", "size", "words"),
    [("big.py", 1_000_001, "larger than 1 MB"), ("s.txt", 10, "Upload a Python"), ("s.py", 0, "empty")],
)
async def test_size_and_type_are_refused_before_the_sandbox(
    strategies: StrategyService, monkeypatch: pytest.MonkeyPatch, filename: str, size: int, words: str
) -> None:
    def never(*args: object) -> None:
        raise AssertionError("the sandbox must not run")

    monkeypatch.setattr("bot.services.strategies.service.check_entry", never)
    with pytest.raises(UploadRefused, match=words):
        await upload_file(strategies, GUILD, ALICE, filename, b"x" * size)
    # refused before anything else: no cooldown was started
    with pytest.raises(AssertionError, match="must not run"):
        await upload_file(strategies, GUILD, ALICE, "ok.py", ROLL_4)


async def test_a_check_that_kept_the_sandbox_busy_starts_a_cooldown_under_its_rule_set_only(
    strategies: StrategyService, clock: FakeClock
) -> None:
    upload = await upload_file(strategies, GUILD, ALICE, "a.py", BUSY_ROLL_4)
    busy = upload.strategy.cpu_seconds
    assert busy is not None and busy >= 1.0 and upload.retry_at == clock() + 30
    clock.advance(10)
    with pytest.raises(OnCooldown) as cooling:
        await upload_file(strategies, GUILD, ALICE, "b.py", ROLL_4)
    # Why, and when as Discord timestamps: each reader sees "in 20 seconds" counting down, in their own time.
    ends = int(clock() + 20)
    assert str(cooling.value) == (
        f"Your last Swine Align / Pig Pass upload kept the sandbox busy for {busy:.1f} s, so your next one "
        f"can start <t:{ends}:R> (at <t:{ends}:t>); uploads under the other rule sets can start now."
    )
    await upload_file(strategies, GUILD, ALICE, "c.py", ROLL_4, rules="pork-chop")  # another rule set
    await upload_file(strategies, GUILD, BOB, "d.py", BUSY_ROLL_4)  # someone else is not held back
    clock.advance(20)
    await upload_file(strategies, GUILD, ALICE, "b.py", ROLL_4)


SYNTAX_ERROR = REFUSALS[0][1]


async def test_quick_checks_never_start_a_cooldown(strategies: StrategyService, clock: FakeClock) -> None:
    """A class fixing its files one mistake at a time: quick refusals and quick acceptances, in a row."""
    for _ in range(6):
        for source in (SYNTAX_ERROR, b"def final_strategy(s):\n    return 4\n"):
            with pytest.raises(StrategyRefused, match="upload again right away"):
                await upload_file(strategies, GUILD, ALICE, "a.py", source)
        upload = await upload_file(strategies, GUILD, ALICE, "a.py", ROLL_4)
        assert upload.retry_at is None
    with pytest.raises(StrategyRefused, match="not valid JSON"):
        await upload_file(strategies, GUILD, ALICE, "a.json", b"[1, 2")
    await upload_file(strategies, GUILD, ALICE, "b.json", json_upload(np.full((100, 100), 5)))


async def test_a_refused_run_that_did_real_work_starts_the_cooldown(
    strategies: StrategyService, clock: FakeClock
) -> None:
    busy = b"import time\nwhile time.process_time() < 1.2:\n    pass\n1 // 0\n"  # over SANDBOX_SECONDS

    with pytest.raises(StrategyRefused, match="ZeroDivisionError") as refused:
        await upload_file(strategies, GUILD, ALICE, "a.py", busy)

    cpu = refused.value.cpu_seconds
    assert cpu is not None and cpu >= 1.2
    assert str(refused.value).endswith(
        f" Checking it kept the sandbox busy for {cpu:.1f} s, so your next Swine Align / Pig Pass upload can "
        f"start <t:{int(clock() + 30)}:R>."
    )
    clock.advance(1)
    with pytest.raises(OnCooldown):
        await upload_file(strategies, GUILD, ALICE, "a.py", ROLL_4)


@pytest.mark.parametrize(
    "source",
    [
        b"import numpy\n" + ROLL_4,  # not a module strategies can import
        REFUSALS[3][1],  # raises for one pair of scores
        REFUSALS[4][1],  # returns a choice the rules forbid
    ],
    ids=["import", "raises", "illegal"],
)
async def test_a_quick_mistake_costs_no_cooldown(
    strategies: StrategyService, clock: FakeClock, source: bytes
) -> None:
    with pytest.raises(StrategyRefused) as refused:
        await upload_file(strategies, GUILD, ALICE, "a.py", source)

    assert str(refused.value).endswith(" Fix it and upload again right away.")
    assert (await upload_file(strategies, GUILD, ALICE, "a.py", ROLL_4)).strategy.name == "a"


async def test_without_a_sandbox_a_json_table_may_follow_at_once(
    strategies: StrategyService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unavailable(*args: object) -> None:
        raise SandboxUnavailable("no seccomp here")

    monkeypatch.setattr("bot.services.strategies.service.check_entry", unavailable)
    with pytest.raises(UploadsUnavailable, match="upload a JSON table instead"):
        await upload_file(strategies, GUILD, ALICE, "a.py", ROLL_4)
    clock.advance(1)
    assert (
        await upload_file(strategies, GUILD, ALICE, "a.json", json_upload(np.full((100, 100), 4)))
    ).strategy


async def test_admission_checks_everything_known_before_the_download(
    strategies: StrategyService, clock: FakeClock
) -> None:
    await upload_file(strategies, GUILD, ALICE, "mine.py", BUSY_ROLL_4)
    clock.advance(1)
    with pytest.raises(OnCooldown):
        await strategies.admit(GUILD, ALICE, "next.py", 100)
    with pytest.raises(NameTaken, match="alice already has a strategy called 'mine'"):
        await strategies.admit(GUILD, BOB, "x.py", 100, name="MINE")
    with pytest.raises(UploadRefused, match="one line of 1 to 32 characters"):
        await strategies.admit(GUILD, BOB, "x.py", 100, name="x" * 33)
    ticket = await strategies.admit(GUILD, BOB, "Bob's.json", 100, rules="fa20")
    assert (ticket.kind, ticket.name, ticket.rules) == ("json", "Bob's", RULES)


async def test_one_person_keeps_a_few_strategies_per_server_and_rule_set(
    strategies: StrategyService, clock: FakeClock
) -> None:
    for name in ("a", "b", "c"):
        await upload_file(strategies, GUILD, ALICE, f"{name}.json", json_upload(np.full((100, 100), 4)))
        clock.advance(60)

    with pytest.raises(TooManyStrategies) as refused:
        await strategies.admit(GUILD, ALICE, "d.json", 100)

    assert str(refused.value) == (
        "You already keep 3 Swine Align / Pig Pass strategies on this server ('a', 'b', 'c'), the most one "
        "person may: delete one, or upload under one of those names to replace it."
    )
    assert (
        await upload_file(strategies, GUILD, ALICE, "B.json", json_upload(np.full((100, 100), 5)))
    ).replaced
    clock.advance(60)
    await upload_file(
        strategies, GUILD, ALICE, "d.json", json_upload(np.full((100, 100), 4)), rules="pork-chop"
    )
    clock.advance(60)
    await upload_file(strategies, GUILD + 1, ALICE, "d.json", json_upload(np.full((100, 100), 4)))
    clock.advance(60)
    await strategies.delete(GUILD, "a", ALICE.id)
    assert (
        await upload_file(strategies, GUILD, ALICE, "d.json", json_upload(np.full((100, 100), 6)))
    ).strategy


async def test_replace_keeps_history_and_names_are_per_server(
    strategies: StrategyService, clock: FakeClock
) -> None:
    first = (await upload_file(strategies, GUILD, ALICE, "mine.py", ROLL_4)).strategy
    clock.advance(60)
    second = await upload_file(strategies, GUILD, ALICE, "other.py", SCORE_MOD, name="Mine")
    assert second.replaced is not None and second.replaced.id == first.id and not second.replaced.active
    history = await strategies.history(GUILD, "mine")
    assert [version.id for version in history] == [first.id, second.strategy.id]
    assert [version.active for version in history] == [False, True]
    assert [s.id for s in await strategies.active(GUILD)] == [second.strategy.id]
    with pytest.raises(NameTaken, match="alice"):  # checked once it has run: it could have had a TEAM_NAME
        await upload_file(strategies, GUILD, BOB, "mine.py", ROLL_4)
    clock.advance(60)
    assert (await upload_file(strategies, GUILD + 1, BOB, "mine.py", ROLL_4)).strategy.guild_id == GUILD + 1


async def test_delete_is_for_the_owner_only(strategies: StrategyService, clock: FakeClock) -> None:
    await upload_file(strategies, GUILD, ALICE, "mine.py", ROLL_4)
    clock.advance(60)
    await upload_file(strategies, GUILD, ALICE, "mine.py", SCORE_MOD)
    with pytest.raises(NotYourStrategy, match="Only alice"):
        await strategies.delete(GUILD, "mine", BOB.id)
    deleted = await strategies.delete(GUILD, "Mine", ALICE.id)
    assert deleted.name == "mine"
    assert await strategies.history(GUILD, "mine") == []
    with pytest.raises(StrategyNotFound):
        await strategies.show(GUILD, "mine")


async def test_identical_tables_are_recognised(strategies: StrategyService, clock: FakeClock) -> None:
    first = (await upload_file(strategies, GUILD, ALICE, "four.py", ROLL_4)).strategy
    clock.advance(60)
    table = table_from_function(always_roll(4), RULES)
    twin = await upload_file(strategies, GUILD, BOB, "fours.json", json_upload(table))
    assert twin.duplicate_of is not None and twin.duplicate_of.id == first.id
    assert twin.strategy.table_hash == first.table_hash and twin.strategy.figures == first.figures
    assert twin.strategy.source_hash != first.source_hash


async def test_unknown_rules_are_refused_before_anything_runs(
    strategies: StrategyService, tournaments: TournamentService, ratings: RatingService
) -> None:
    with pytest.raises(UnknownRules, match="bogus"):
        await strategies.admit(GUILD, ALICE, "four.py", 100, rules="bogus")
    with pytest.raises(UnknownRules, match="bogus"):
        await strategies.active(GUILD, rules="bogus")
    with pytest.raises(UnknownRules, match="bogus"):
        await run_tournament(tournaments, GUILD, ALICE, "bogus")
    with pytest.raises(UnknownRules, match="bogus"):
        await ratings.leaderboard("bogus")
    assert await tournaments.latest(GUILD) is None


async def test_opponent_lookup_checks_rules(strategies: StrategyService) -> None:
    await upload_file(strategies, GUILD, ALICE, "four.py", ROLL_4)
    found = await strategies.opponent(GUILD, "four", "fa20")
    assert found.table is not None and np.array_equal(found.table, table_from_function(always_roll(4), RULES))
    with pytest.raises(WrongRules, match="plays Swine Align / Pig Pass, not Pork Chop"):
        await strategies.opponent(GUILD, "four", "pork-chop")
    assert (await strategies.opponent(GUILD, "four", owner=ALICE)).rules == RULES  # its own rules
    with pytest.raises(StrategyNotFound, match="bob has no strategy called 'four' here: it is alice's"):
        await strategies.opponent(GUILD, "four", owner=BOB)


@pytest.mark.parametrize(
    ("name", "filename", "made"),
    [
        (None, "My Strategy (2).py", "My Strategy (2)"),
        (None, "Alice's Pigs.py", "Alice's Pigs"),
        (None, "\u200b.py", "strategy"),
        (" ok name ", "x.py", "ok name"),
        ("Zoë & Chloé 🐷", "x.py", "Zoë & Chloé 🐷"),
        ("<@everyone>", "x.py", "<@everyone>"),  # escaped where it is shown, as every name is
    ],
)
def test_names_are_kept_as_written(name: str | None, filename: str, made: str) -> None:
    assert strategy_name(name, filename) == made


@pytest.mark.parametrize("name", ["two\nlines", "\u200b\u2800", "   ", "x" * 33])
def test_names_that_cannot_be_read_on_one_line_are_refused(name: str) -> None:
    with pytest.raises(UploadRefused, match="one line of 1 to 32 characters"):
        strategy_name(name, "x.py")


async def test_a_team_name_names_the_strategy_as_written_and_is_kept_whole(
    strategies: StrategyService,
) -> None:
    long_name = "Alice's Pigs 🐷 and the Very Long Name of a Team"
    upload = await upload_file(
        strategies, GUILD, ALICE, "hog.py", f"TEAM_NAME = {long_name!r}\n".encode() + ROLL_4
    )
    assert upload.strategy.team_name == long_name  # stored and exported exactly as the file wrote it
    assert upload.strategy.name == "Alice's Pigs 🐷 and the Very Lon…"  # MAX_NAME characters
    named = await upload_file(
        strategies, GUILD, BOB, "final.py", "PLAYER_NAME = 'Bob\u2019s Bacon'\n".encode() + ROLL_4
    )
    assert (named.strategy.name, named.strategy.team_name) == ("Bob\u2019s Bacon", "Bob\u2019s Bacon")


async def test_the_event_loop_serves_others_while_the_sandbox_runs(
    strategies: StrategyService, gate: Gate
) -> None:
    upload = asyncio.create_task(upload_file(strategies, GUILD, ALICE, "four.py", ROLL_4))
    await gate.reached()

    listed = await strategies.active(GUILD)  # the loop answers while the sandbox is busy

    assert listed == [] and not upload.done()
    gate.opened.set()
    assert (await upload).strategy.name == "four"


async def test_an_upload_stopped_in_the_sandbox_stores_nothing_and_costs_nothing(
    strategies: StrategyService, gate: Gate
) -> None:
    upload = asyncio.create_task(upload_file(strategies, GUILD, ALICE, "four.py", ROLL_4))
    await gate.reached()
    strategies.stop()  # the bot is stopping while the file is in the sandbox
    gate.opened.set()

    with pytest.raises(UploadStopped, match="not stored"):
        await upload
    assert await strategies.active(GUILD) == []
    await strategies.admit(GUILD, ALICE, "four.py", len(ROLL_4))  # no cooldown: it may be sent again


def test_table_bytes_are_row_major_int8() -> None:
    table = (np.arange(10_000).reshape(100, 100) % 11).astype(np.int8)
    data = table_bytes(table)
    assert len(data) == 10_000 and data[101] == table[1, 1]


async def test_uploads_beyond_the_waiting_limit_are_refused(
    db: Database, clock: FakeClock, gate: Gate
) -> None:
    service = StrategyService(db, clock, upload_limits(workers=1, waiting=1))
    try:
        first = asyncio.create_task(upload_file(service, GUILD, ALICE, "four.py", ROLL_4))
        await gate.reached()  # the first is in the sandbox now
        with pytest.raises(UploadsBusy):
            await upload_file(service, GUILD, BOB, "five.py", ROLL_4)
        gate.opened.set()
        assert (await first).strategy.name == "four"
        assert (
            await upload_file(service, GUILD, BOB, "five.py", ROLL_4)
        ).strategy.name == "five"  # no cooldown
    finally:
        gate.opened.set()
        service.close()


async def test_a_bot_game_plays_the_stored_table_and_so_does_its_rematch(
    strategies: StrategyService, service: GameService, play_out: PlayOut
) -> None:
    uploaded = (await upload_file(strategies, GUILD, ALICE, "mod.py", SCORE_MOD)).strategy
    stored = await strategies.opponent(GUILD, "MOD", RULES)
    assert stored.table is not None
    match = await service.vs_bot(CHANNEL, BOB, RULES, strategy=stored, guild_id=GUILD)
    assert (match.bot_level, match.strategy_name, match.guild_id) == (HouseLevel.STRATEGY, "mod", GUILD)
    assert match.rematch_votes == (False, True)  # the house bot's vote is cast from the start
    match = await play_out(match, lambda state: 5)
    await strategies.delete(GUILD, "mod", ALICE.id)  # the game keeps its copy of the table
    rematch = await service.rematch(match.id, BOB.id)
    assert rematch is not None and rematch.bot_seat == 0 and rematch.strategy_name == "mod"
    rematch = await play_out(rematch, lambda state: 5)
    for game in (match, rematch):
        turns = await service.turns(game.id)
        bot_turns = [t.result for t in turns if t.result.player == game.bot_seat]
        assert bot_turns
        for turn in bot_turns:
            me, you = turn.before.scores[turn.player], turn.before.scores[1 - turn.player]
            assert turn.choice == stored.table[me, you] == me % 11
    assert uploaded.id == stored.id


BACON = b"TEAM_NAME = 'Bacon Bits'\n" + ROLL_4
RANDOM_CHOICE = b"import random\ndef final_strategy(score, opponent):\n    return random.choice([3, 4, 5])\n"


async def test_a_team_name_names_the_stored_strategy_unless_a_name_is_given(
    strategies: StrategyService, clock: FakeClock
) -> None:
    stored = (await upload_file(strategies, GUILD, ALICE, "bacon.py", BACON)).strategy
    assert (stored.name, stored.team_name) == ("Bacon Bits", "Bacon Bits")
    assert (await strategies.show(GUILD, "bacon bits")).team_name == "Bacon Bits"
    named = (await upload_file(strategies, GUILD, BOB, "bacon.py", BACON, name="mine")).strategy
    assert (named.name, named.team_name) == ("mine", "Bacon Bits")
    clock.advance(60)
    odd = b"TEAM_NAME = 'Les Cochons! @here'\n" + ROLL_4
    stored = (await upload_file(strategies, GUILD, ALICE, "odd.py", odd)).strategy
    assert (stored.name, stored.team_name) == ("Les Cochons! @here", "Les Cochons! @here")  # as written
    assert (await upload_file(strategies, GUILD, CAROL, "plain.py", ROLL_4)).strategy.team_name is None


@pytest.mark.parametrize(
    ("line", "shown"), [(b"TEAM_NAME = 3\n", "not 3."), (b"TEAM_NAME = 'x' * 10_000\n", "10000 characters")]
)
async def test_a_team_name_that_is_not_a_short_string_is_refused(
    strategies: StrategyService, line: bytes, shown: str
) -> None:
    with pytest.raises(StrategyRefused, match="TEAM_NAME must be one line of 1 to 80 characters") as refused:
        await upload_file(strategies, GUILD, ALICE, "team.py", line + ROLL_4)
    assert refused.value.kind == "bad_team_name" and shown in str(refused.value)
    assert await strategies.active(GUILD) == []


async def test_a_random_strategy_is_stored_with_its_recorded_tables_where_its_contest_takes_it(
    strategies: StrategyService,
) -> None:
    with pytest.raises(StrategyRefused, match="Under Pork Chop a strategy must be deterministic; only Ham"):
        await upload_file(strategies, GUILD, ALICE, "dice.py", RANDOM_CHOICE, rules="pork-chop")
    stored = (await upload_file(strategies, GUILD, BOB, "dice.py", RANDOM_CHOICE, rules="pig-fest")).strategy
    assert len(stored.tables) == 9 and stored.table is not None
    assert np.array_equal(stored.table, stored.tables[0]) and not np.array_equal(*stored.tables[:2])
    shown = await strategies.show(GUILD, "dice")
    assert all(np.array_equal(a, b) for a, b in zip(shown.tables, stored.tables, strict=True))
    five = next(figure for figure in stored.figures if figure.opponent == "always_roll(5)")
    rate = exact_winrate("pig-fest", stored.table, table_from_function(always_roll(5), "pig-fest"))
    assert five.average == pytest.approx(rate.average, abs=1e-12)  # computed once, from the first table


PIG_PEN = b"TEAM_NAME = 'Pig Pen'\n" + ROLL_4


async def test_a_python_file_given_no_name_is_checked_under_its_team_name_not_its_file_name(
    strategies: StrategyService, clock: FakeClock
) -> None:
    """Every student's file is hog_contest.py (seeds 000 and 003): its TEAM_NAME names it, not the file."""
    carol = (await upload_file(strategies, GUILD, CAROL, "hog_contest.py", ROLL_4)).strategy
    bob = (await upload_file(strategies, GUILD, BOB, "hog_contest.py", PIG_PEN)).strategy
    assert (carol.name, bob.name) == ("hog_contest", "Pig Pen")
    with pytest.raises(NameTaken, match="carol already has a strategy called 'hog_contest'"):
        await upload_file(strategies, GUILD, ALICE, "hog_contest.py", ROLL_4)  # no TEAM_NAME: the file's name
    assert [s.name for s in await strategies.active(GUILD)] == ["hog_contest", "Pig Pen"]


async def test_at_the_limit_a_python_file_replaces_the_strategy_its_team_name_names(
    strategies: StrategyService, clock: FakeClock
) -> None:
    await upload_file(strategies, GUILD, ALICE, "f0.py", BACON)
    for name in ("a", "b"):
        clock.advance(60)
        await upload_file(strategies, GUILD, ALICE, f"{name}.json", json_upload(np.full((100, 100), 4)))
    clock.advance(60)
    again = await upload_file(strategies, GUILD, ALICE, "f0.py", BACON)
    assert again.replaced is not None and again.strategy.name == again.replaced.name == "Bacon Bits"
    clock.advance(60)
    with pytest.raises(TooManyStrategies, match=r"\('a', 'b', 'Bacon Bits'\)"):
        await upload_file(strategies, GUILD, ALICE, "f1.py", PIG_PEN)  # a new name, checked once it is known
    assert [s.name for s in await strategies.active(GUILD)] == ["a", "b", "Bacon Bits"]
