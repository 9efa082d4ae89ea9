"""Every button's custom_id fits Discord's 100 characters with the largest ids SQLite can hand out, and
reads back (through the template discord.py matches it with) as the press it was made for."""

import pytest

from bot.discord.sharing import ShareButton
from bot.discord.views import (
    ITEMS,
    AnalysisButton,
    ChallengeButton,
    DiceButton,
    EnterButton,
    ForgetButton,
    HogButton,
    PlayButton,
    RematchButton,
    TryButton,
)
from bot.services import MAX_NAME

LARGEST = 2**63 - 1  # SQLite's largest row id, and more than any turn number
NAME = "a strategy name-" * (MAX_NAME // 16)  # the longest a strategy's name may be, with spaces


@pytest.mark.parametrize(
    "button, meaning",
    [
        (PlayButton(LARGEST, LARGEST, -1, "Pork Chop"), {"match": LARGEST, "turn": LARGEST, "choice": -1}),
        (PlayButton(LARGEST, LARGEST, 10, "Roll 10"), {"match": LARGEST, "turn": LARGEST, "choice": 10}),
        *(
            (ChallengeButton(action, LARGEST), {"action": action, "match": LARGEST})
            for action in ChallengeButton.STYLES
        ),
        (RematchButton(LARGEST), {"match": LARGEST}),
        (AnalysisButton(LARGEST), {"match": LARGEST}),
        (DiceButton(LARGEST), {"match": LARGEST}),
        (ForgetButton(), {}),
        (TryButton(NAME), {"name": NAME}),
        (EnterButton(NAME), {"name": NAME}),
        (ShareButton("analysis", str(LARGEST)), {"kind": "analysis", "key": LARGEST}),
        (ShareButton("stats", str(LARGEST)), {"kind": "stats", "key": LARGEST}),
        (ShareButton("strategy", NAME), {"kind": "strategy", "key": NAME}),
    ],
)
def test_custom_ids_fit_and_read_back(button: HogButton, meaning: dict[str, object]) -> None:
    custom_id = button.custom_id
    assert len(custom_id) <= 100
    readers = [item for item in ITEMS if item.__discord_ui_compiled_template__.fullmatch(custom_id)]
    assert readers == [type(button)]  # exactly one registered button answers it
    found = type(button).__discord_ui_compiled_template__.fullmatch(custom_id)
    assert found is not None
    read = {
        key: int(value) if value.lstrip("-").isdigit() else value for key, value in found.groupdict().items()
    }
    assert read == meaning
