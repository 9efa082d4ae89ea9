"""A whole sitting as new players live it, kept as a transcript (set HOG_TRANSCRIPT=FILE to keep a copy to
read), and held to what a phone in Discord needs: short footers, plain words and numbers, no jargon, no long
hex on a board, and a notice for every moment that is someone's business."""

import os
import re
from pathlib import Path

from bot.services import MatchStatus
from hogengine.game import State
from tests.bot.discord.conftest import TURN_TIMEOUT
from tests.bot.discord.harness import World, private
from tests.bot.discord.transcript import Transcript

FIVE = b"TEAM_NAME = 'Five Alive'\n\ndef final_strategy(score, opponent_score):\n    return 5\n"
KEYBOARD = (
    b"from dice import six_sided\n\ndef final_strategy(score, opponent_score):\n    return int(input())\n"
)
FOUR = b"def final_strategy(score, opponent_score):\n    return 4\n"
JARGON = (
    "(s)",  # "game(s)": say one or the other
    "mu ",
    "sigma",
    "6-sided",
    "Hog Bot (strategy",
    "the house bot",
)


def fives_and_chops(state: State) -> int:
    """Roll five; in pork-chop, swap once when behind by 20 or more."""
    behind = state.scores[1 - state.mover] - state.scores[state.mover] >= 20
    spent = state.rules == "pork-chop" and state.hidden_by_name()["pork_chop"][state.mover]
    return -1 if state.rules == "pork-chop" and behind and not spent else 5


async def alices_first_game(world: World, seen: Transcript) -> None:
    """alice reads the help, the rules, asks for the coach and plays Hog Bot to the end."""
    seen.private("alice", await world.alice.slash(world.channel, "hog help"))
    seen.private("alice", await world.alice.slash(world.channel, "hog rules", rules="pork-chop"))
    seen.private("alice", await world.alice.slash(world.channel, "hog coach", setting="on"))
    game = await world.vs_bot("easy")
    seen.look("alice: /hog vs-bot level:easy")
    seen.private("alice", await world.alice.click(await world.board(game.id), label="Verify dice"))
    coached = await world.alice.click(await world.board(game.id), label="Roll 3")  # 13 points given away
    seen.look("alice rolled three dice; Hog Bot answered")
    seen.private("alice (the coach)", coached)
    boards = await world.play_to_end(game.id, fives_and_chops)
    seen.look("alice played vs Hog Bot to the end")
    seen.private("alice", await world.alice.click(boards[-1], label="Analysis"))


async def a_duel(world: World, seen: Transcript) -> int:
    """alice and bob play pork-chop (bob leaves his turn alone a while), then alice wants a rematch; bob
    challenges carol, who declines. The duel's match id."""
    duel = await world.challenge("pork-chop")
    seen.look("alice challenged bob to pork-chop; bob accepted")
    seen.private("bob", await world.bob.slash(world.channel, "hog games"))
    await world.alice.click(await world.board(duel.id), label="Roll 5")
    seen.look("alice rolled: bob's turn")
    seen.private("bob", await world.bob.slash(world.channel, "hog hint"))
    await world.advance(TURN_TIMEOUT - 45)
    seen.look("bob left his turn alone for four minutes")
    await world.bob.click(await world.board(duel.id), label="Roll 5")
    await world.play_to_end(duel.id, fives_and_chops)
    seen.look("alice and bob played to the end")
    await world.alice.click(await world.board(duel.id), label="Rematch")
    seen.look("alice wants a rematch")
    await world.bob.slash(world.channel, "hog challenge", opponent=world.carol)
    await world.carol.click(world.channel.last_message, label="Decline")
    seen.look("bob challenged carol; carol declined")
    return duel.id


async def strategies(world: World, seen: Transcript) -> None:
    """carol and bob upload, carol shares hers and plays bob's, the mod runs a tournament, alice looks at
    her records, carol asks for a hint with no game."""
    seen.private("carol", await world.upload(world.carol, "mine.py", KEYBOARD))
    accepted = await world.upload(world.carol, "mine.py", FOUR, name="Four Square")
    seen.private("carol", accepted)
    seen.private("bob", await world.upload(world.bob, "five.py", FIVE))
    seen.look("carol and bob uploaded")
    await world.carol.click(private(accepted).message, label="Share to channel")
    seen.look("carol shared her upload")
    await world.carol.slash(world.channel, "hog vs-bot", strategy="Five Alive")
    seen.look("carol: /hog vs-bot strategy:Five Alive")
    seen.private("carol", await world.carol.slash(world.channel, "hog forfeit"))
    seen.look("carol gave up")
    seen.private("mod", await world.mod.slash(world.channel, "hog tournament", rules="swine-align"))
    seen.look("mod: /hog tournament")
    for command in ("hog leaderboard", "hog stats", "hog history"):
        seen.private("alice", await world.alice.slash(world.channel, command))
    seen.private("carol", await world.carol.slash(world.channel, "hog hint"))


async def test_a_whole_sitting_reads_well_on_a_phone(world: World, tmp_path: Path) -> None:
    seen = Transcript(world)
    await alices_first_game(world, seen)
    duel = await a_duel(world, seen)
    await strategies(world, seen)
    world.domain_errors()  # carol's refused upload and hint were told to her (they are in the transcript)

    text = seen.text()
    (tmp_path / "sitting.txt").write_text(text)
    if os.environ.get("HOG_TRANSCRIPT"):
        Path(os.environ["HOG_TRANSCRIPT"]).write_text(text)
    assert (await world.match(duel)).status is MatchStatus.FINISHED
    assert "Fix it and upload again right away" in text and "Four Square" in text
    assert "Five Alive (bob's strategy)" in text
    assert all(len(footer) <= 60 for footer in seen.footers if footer.startswith("Match ")), seen.footers
    assert not re.search(r"[0-9a-f]{64}", "\n".join(seen.public)), "a 64-hex string in the channel"
    for moment in ("⏳ <@", "you lost to **", "wants a rematch: press Rematch", "declined your challenge"):
        assert moment in text, moment
    assert "🎓 Turn 1: Roll 3 was a mistake against perfect play" in text and "</hog vs-bot:" in text
    assert "Longest Pig Fest streak" not in text  # nobody played pig-fest: nothing to say
    for word in JARGON:
        assert word not in text, word
    assert not re.search(r"\d\.\d{2,}%", text)  # one decimal for a win rate, at most
