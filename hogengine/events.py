"""The typed events a turn reports: which rule fired, and the number it produced."""

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from hogengine.text import counted


class EventKind(StrEnum):
    """Every rule a turn can trigger, named as in DESIGN.md, in the order the rules act within a turn (the
    order a turn reports them in)."""

    HOG_WILD = "hog_wild"
    PORK_CHOP = "pork_chop"
    HAM_HIJINKS = "ham_hijinks"
    FREE_BACON = "free_bacon"
    PIG_OUT = "pig_out"
    PIGGY_BACK = "piggy_back"
    MULTIPLIER = "multiplier"
    PRIME_BOOST = "prime_boost"
    SWAP = "swap"
    EXTRA_TURN = "extra_turn"
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class Event:
    """One rule that fired in a turn, for the player who moved, with its number (points, sides, ...)."""

    kind: EventKind
    player: int
    value: int
    note: str = ""  # which variant fired, e.g. "swine_align" or "pig_pass" for an extra turn

    def to_json(self) -> dict[str, Any]:
        """The replay contract's shape of an event."""
        data: dict[str, Any] = {"kind": self.kind.value, "player": self.player, "value": self.value}
        if self.note:
            data["note"] = self.note
        return data

    def describe(self) -> str:
        """The event in words, for boards and terminals."""
        who = f"Player {self.player}"
        texts = {
            EventKind.PIG_OUT: f"{who} pigs out ({counted(self.value, 'point')})",
            EventKind.FREE_BACON: f"{who} takes Free Bacon for {self.value}",
            EventKind.PRIME_BOOST: f"Hogtimus Prime boosts the turn to {self.value}",
            EventKind.HOG_WILD: f"Hog Wild: {self.value}-sided dice",
            EventKind.SWAP: "Swine Swap: the scores trade places",
            EventKind.PORK_CHOP: f"{who} plays Pork Chop: the scores trade places",
            EventKind.HAM_HIJINKS: f"{who} plays Ham Hijinks: the dice are exchanged ({self.value} so far)",
            EventKind.MULTIPLIER: f"Pig Fest multiplies the turn by {self.value}",
            EventKind.PIGGY_BACK: f"Piggy Back gives the opponent {self.value}",
            EventKind.EXTRA_TURN: f"{who} goes again ({self.note.replace('_', ' ').title()})",
            EventKind.GAME_OVER: f"Player {self.value} wins",
        }
        return texts[self.kind]

    def brief(self) -> str:
        """The event in a word or two, for one line per turn on a phone ("Pig Out", "Pig Fest x3"); empty
        for what the line says anyway (the game's end, Free Bacon's choice, four-sided dice)."""
        texts = {
            EventKind.PIG_OUT: "Pig Out",
            EventKind.FREE_BACON: "",
            EventKind.PRIME_BOOST: "Hogtimus Prime",
            EventKind.HOG_WILD: "",
            EventKind.SWAP: "Swine Swap",
            EventKind.PORK_CHOP: "scores swapped",
            EventKind.HAM_HIJINKS: "dice exchanged",
            EventKind.MULTIPLIER: f"Pig Fest x{self.value}",
            EventKind.PIGGY_BACK: f"Piggy Back: Player {1 - self.player} +{self.value}",
            EventKind.EXTRA_TURN: f"goes again ({self.note.replace('_', ' ').title()})",
            EventKind.GAME_OVER: "",
        }
        return texts[self.kind]
