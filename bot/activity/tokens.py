"""The Activity's own sign-in: a short-lived token the page sends in a header (never a cookie), saying who
signed in to which instance, signed with a key made from the application's client secret (so every bot
process serving the Activity reads the others' tokens, and a restart keeps them)."""

import base64
import binascii
import hashlib
import hmac
import json
from collections.abc import Callable
from dataclasses import dataclass

from bot.domain.errors import SignInExpired, SignInNeeded
from bot.domain.matches import Player

KEY_PURPOSE = b"hogbot activity sign-in\0"
MAX_TOKEN = 1024  # characters: a token of ours is a few hundred


@dataclass(frozen=True, slots=True)
class Pass:
    """Who signed in (Discord said so), to which instance of the Activity, until when (Unix time)."""

    person: Player
    instance_id: str
    expires: float


def _encoded(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _decoded(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Tokens:
    """Issues and reads the tokens of one application (its client secret), each valid `lifetime` seconds."""

    def __init__(self, secret: str, lifetime: float, clock: Callable[[], float]) -> None:
        self._key = hashlib.sha256(KEY_PURPOSE + secret.encode()).digest()
        self.lifetime = lifetime
        self._clock = clock

    def issue(self, person: Player, instance_id: str) -> tuple[str, Pass]:
        """A token for this person in this instance, valid from now for the lifetime, and what it says."""
        granted = Pass(person, instance_id, self._clock() + self.lifetime)
        body = json.dumps(
            {"u": str(person.id), "n": person.name, "i": instance_id, "e": granted.expires},
            separators=(",", ":"),
        ).encode()
        return f"{_encoded(body)}.{_encoded(self._sign(body))}", granted

    def read(self, token: str) -> Pass:
        """What a token of ours says; SignInNeeded for anything else, SignInExpired once past its time."""
        body_text, _, signature = token.partition(".")
        if len(token) > MAX_TOKEN or not signature:
            raise SignInNeeded
        try:
            body, given = _decoded(body_text), _decoded(signature)
        except (binascii.Error, ValueError):
            raise SignInNeeded from None
        if not hmac.compare_digest(given, self._sign(body)):
            raise SignInNeeded
        fields = json.loads(body)  # ours, since signed by us
        granted = Pass(Player(int(fields["u"]), fields["n"]), fields["i"], fields["e"])
        if self._clock() >= granted.expires:
            raise SignInExpired
        return granted

    def _sign(self, body: bytes) -> bytes:
        return hmac.new(self._key, body, hashlib.sha256).digest()
