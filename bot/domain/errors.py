"""Every refusal of floor 2, in one tree. Each class writes its own message, once: the words a user sees,
built from the class's arguments. Code that raises names what happened and never words it."""

# ruff: noqa: N818 - names say what happened, as the engine's errors do (IllegalChoice, GameOver)

import math
from typing import ClassVar

from hogengine.errors import HogError
from hogengine.rules import get_rules


class ServiceError(HogError):
    """A refusal of the services; `message` is its text when it needs no arguments."""

    message: ClassVar[str] = "That cannot be done."

    def __init__(self, text: str | None = None) -> None:
        super().__init__(self.message if text is None else text)


# Matches: finding them, and who may act in them.


class MatchNotFound(ServiceError):
    """No such match (an old button, or a mistyped id)."""

    message = "That game does not exist."


class NotYourGame(ServiceError):
    """The user pressed or asked about a match they are not playing in."""

    message = "You are not playing in this game."


class NotThisServersGame(NotYourGame):
    """A match of another server, asked about by someone who did not play in it."""

    def __init__(self, verb: str) -> None:
        super().__init__(f"That game was not played on this server: only its players can {verb} it here.")


class NotYourChallenge(NotYourGame):
    """Someone other than the one who may answer (or withdraw) a challenge pressed its button."""

    def __init__(self, name: str, verb: str) -> None:
        super().__init__(f"Only {name} can {verb} this challenge.")


class NotYourTurn(ServiceError):
    """A player acted while it is the other side's turn."""

    def __init__(self, mover: str) -> None:
        super().__init__(f"It's {mover}'s turn.")


class HintsOnYourTurn(NotYourTurn):
    """A hint asked for while the other side is to move."""

    def __init__(self) -> None:
        ServiceError.__init__(self, "Hints are for your own turn.")


class NoOpenGame(ServiceError):
    """A command about "my game" in a channel where the user has none open."""

    message = "You have no open game in this channel: start one with /hog vs-bot or /hog challenge."


class GameElsewhere(NoOpenGame):
    """A command about "my game" in a channel where the user has none, while they have one in another
    (`where`: a link to its message)."""

    def __init__(self, where: str) -> None:
        super().__init__(f"Your open game is in another channel: {where}")


# Late and double presses: safe to answer quietly.


class StaleAction(ServiceError):
    """A stale or double press: what it was meant for is already done, or the match moved on."""

    message = "That was already done: the game has moved on."


class TurnAlreadyPlayed(StaleAction):
    message = "That turn was already played."


class RepeatedPress(StaleAction):
    """A person pressed again what they already did (a double tap: a choice of a turn they played, their own
    answer to a challenge): nothing to tell them, the redrawn board shows it."""

    message = "You already did that."


class TurnTimedOut(StaleAction):
    message = "Time ran out for this turn."


class RematchStarted(StaleAction):
    message = "The rematch has already started."


class MatchOver(StaleAction):
    """The match is no longer being played: a late press or request."""

    message = "This game is over."


class NoHintsAfterTheGame(MatchOver):
    message = "This game is over: no hints needed."


class BoardRedrawn(StaleAction):
    """A stale press on a board, answered by drawing the board again from the stored game (after a crash
    or a failed edit, the message may lag behind it)."""

    def __init__(self, stale: HogError) -> None:
        super().__init__(f"{stale} The board now shows the game as it is.")


# Challenges and rematches.


class ChallengeClosed(ServiceError):
    """The challenge was already accepted, declined, cancelled or expired."""

    message = "This challenge is no longer open."


class ChallengeExpired(ChallengeClosed):
    message = "This challenge has expired."


class AlreadyPlaying(ServiceError):
    """A player already has an open challenge or game in this channel."""

    def __init__(self, name: str | None) -> None:
        """`name`: the busy player, or None when it is the one who asked."""
        who = "You already have" if name is None else f"{name} already has"
        super().__init__(f"{who} a game or challenge open in this channel: finish or forfeit it first.")


class CannotChallenge(ServiceError):
    """A challenge or house-bot game that cannot be made."""


class ChallengedABot(CannotChallenge):
    message = "Bot accounts can't play: use /hog vs-bot to play Hog Bot."


class ChallengedYourself(CannotChallenge):
    message = "You can't challenge yourself."


class UnknownBotLevel(CannotChallenge):
    def __init__(self, level: str, levels: str) -> None:
        super().__init__(f"Unknown bot level '{level[:20]}': choose {levels}.")


class UnknownNoticeSetting(ServiceError):
    """`/hog notices` with a setting that is neither on nor off (sent by a client that skips Discord's
    choices)."""

    message = "Choose on or off."


class NotStarted(ServiceError):
    """The match is still a challenge: there is no game to act on yet."""

    message = "The game has not started yet: hints come once the challenge is accepted."


class RematchUnavailable(ServiceError):
    """A rematch vote on a match that is still on, or that never became a game."""

    def __init__(self, still_on: bool) -> None:
        super().__init__("The game is still on." if still_on else "There was no game to rematch.")


class CalledOff(ServiceError):
    """A new match whose first message could not be shown: nobody could see it, so it was called off."""

    message = "I could not post the game in this channel, so it was called off. Please try again."


# Uploads and strategies.


class UploadRefused(ServiceError):
    """An upload refused before it was run."""


class WrongFileType(UploadRefused):
    message = "Upload a Python file (.py) with final_strategy, or a JSON table (.json)."


class FileTooLarge(UploadRefused):
    def __init__(self, megabytes: int) -> None:
        super().__init__(f"The file is larger than {megabytes} MB.")


class EmptyFile(UploadRefused):
    message = "The file is empty."


class BadStrategyName(UploadRefused):
    def __init__(self, longest: int) -> None:
        super().__init__(
            f"A strategy name is one line of 1 to {longest} characters, with something to read in it."
        )


def upload_again(at: float | None, rules: str = "", cpu_seconds: float | None = None) -> str:
    """When its author may upload next under `rules` (their check kept the sandbox busy `cpu_seconds`), as a
    Discord timestamp that counts down in each reader's own time (None: right away)."""
    if at is None:
        return "Fix it and upload again right away."
    return (
        f"Checking it kept the sandbox busy for {cpu_seconds or 0:.1f} s, so your next {rules} upload can "
        f"start <t:{math.ceil(at)}:R>."
    )


class StrategyRefused(ServiceError):
    """The strategy was checked and refused, in the checker's words (`reason`), then when the author may
    upload again (`retry_at`, Unix seconds; None: at once); `kind` is the sandbox's code (or "bad_table" for
    JSON), and `cpu_seconds` the sandbox's CPU time (None when it did not run)."""

    def __init__(
        self,
        reason: str,
        kind: str,
        cpu_seconds: float | None = None,
        retry_at: float | None = None,
        rules: str = "",
    ) -> None:
        sentence = reason if reason.endswith((".", "!", "?")) else f"{reason}."
        super().__init__(f"{sentence} {upload_again(retry_at, rules, cpu_seconds)}")
        self.reason = reason
        self.kind = kind
        self.cpu_seconds = cpu_seconds
        self.retry_at = retry_at


class BadTable(StrategyRefused):
    """A JSON table refused, in the table reader's words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason, "bad_table")


class NotUtf8(StrategyRefused):
    def __init__(self) -> None:
        super().__init__("The file is not valid UTF-8.", "not_utf8")


class OnCooldown(ServiceError):
    """The user's last upload under these rules kept the sandbox busy `cpu_seconds`; `retry_at` is when
    they may upload under them again, in Unix seconds."""

    def __init__(self, retry_at: float, rules: str, cpu_seconds: float) -> None:
        at = math.ceil(retry_at)
        super().__init__(
            f"Your last {rules} upload kept the sandbox busy for {cpu_seconds:.1f} s, so your next one can "
            f"start <t:{at}:R> (at <t:{at}:t>); uploads under the other rule sets can start now."
        )
        self.retry_at = retry_at


class UploadsBusy(ServiceError):
    """Too many uploads are waiting to be checked."""

    message = "Too many uploads are being checked right now: try again in a minute."


class PreviousUploadPending(UploadsBusy):
    message = "Your previous upload is still being checked: wait for its verdict."


class UploadOvertaken(ServiceError):
    """An upload whose lease ran out while it was checked (its bot process stalled) and went to another:
    nothing of it was stored."""

    message = (
        "Checking your file took too long and another upload took its place, so your file was not stored. "
        "Please send it again."
    )


class UploadsUnavailable(ServiceError):
    """This host cannot run the sandbox safely, so Python uploads are switched off."""

    message = "Python uploads are switched off on this host (no safe sandbox): upload a JSON table instead."


class NameTaken(ServiceError):
    """Someone else on this server already has a strategy of that name."""

    def __init__(self, name: str, owner: str | None = None) -> None:
        super().__init__(f"{owner or 'Someone else'} already has a strategy called '{name}'.")


class TooManyStrategies(ServiceError):
    """The owner already keeps as many strategies under these rules on this server as one person may."""

    def __init__(self, rules: str, names: list[str]) -> None:
        listed = ", ".join(f"'{name}'" for name in names)
        kind = get_rules(rules).name
        super().__init__(
            f"You already keep {len(names)} {kind} strategies on this server ({listed}), the most one "
            "person may: delete one, or upload under one of those names to replace it."
        )


class StrategyNotFound(ServiceError):
    """No active strategy of that name on this server."""

    message = "That strategy no longer exists."


class NoStrategyCalled(StrategyNotFound):
    def __init__(self, name: str) -> None:
        ServiceError.__init__(self, f"There is no strategy called '{name.strip()[:32]}' on this server.")


class NotTheirStrategy(StrategyNotFound):
    """A strategy asked for as someone's that belongs to another person."""

    def __init__(self, asked: str, name: str, owner: str) -> None:
        ServiceError.__init__(self, f"{asked} has no strategy called '{name}' here: it is {owner}'s.")


class NotYourStrategy(ServiceError):
    """Only a strategy's owner (or course staff) may delete it."""

    def __init__(self, owner: str, name: str) -> None:
        super().__init__(f"Only {owner} (or course staff) can delete '{name}'.")


class WrongRules(ServiceError):
    """A strategy used under a rule set it was not made for."""

    def __init__(self, name: str, plays: str, asked: str) -> None:
        super().__init__(f"'{name}' plays {get_rules(plays).name}, not {get_rules(asked).name}.")


# Tournaments.


class TournamentRefused(ServiceError):
    """A tournament that cannot run."""


class UnknownFormat(TournamentRefused):
    def __init__(self, fmt: str, formats: tuple[str, ...]) -> None:
        super().__init__(f"Unknown format '{fmt[:20]}': choose {' or '.join(formats)}.")


class TournamentRunning(TournamentRefused):
    message = "A tournament is already running on this server."


class TooFewStrategies(TournamentRefused):
    def __init__(self, rules: str) -> None:
        super().__init__(
            f"A tournament needs at least two {get_rules(rules).name} strategies on this server."
        )


class TournamentNotFound(TournamentRefused):
    message = "That tournament does not exist."


class TournamentOvertaken(ServiceError):
    """A tournament whose lease ran out while it was computed (its bot process stalled) and went to another:
    nothing of it was stored."""

    message = (
        "The tournament took too long and another took its place on this server, so nothing of it was "
        "stored. Please start it again."
    )


# Contests.


def _contest(rules: str) -> str:
    """A contest named by its rule set's name, as every message names rule sets."""
    return f"{get_rules(rules).name} contest"


class ContestRefused(ServiceError):
    """A contest command that cannot be done."""


class NoContest(ContestRefused):
    def __init__(self, rules: str | None = None) -> None:
        under = "" if rules is None else f" for {get_rules(rules).name}"
        super().__init__(f"No contest is open{under} on this server.")


class NoContestYet(ContestRefused):
    message = "No contest has been held on this server yet: course staff open one with `/hog contest open`."


class WhichContest(ContestRefused):
    def __init__(self, rules: list[str]) -> None:
        names = " and ".join(get_rules(each).name for each in rules)
        super().__init__(f"Contests are open here for {names}: choose one with `rules`.")


class ContestAlreadyOpen(ContestRefused):
    def __init__(self, rules: str) -> None:
        super().__init__(f"A {_contest(rules)} is already open on this server: close it first.")


class ContestClosed(ContestRefused):
    def __init__(self, rules: str) -> None:
        super().__init__(f"The {_contest(rules)} has closed: entries can no longer change.")


class BadCloseTime(ContestRefused):
    """A close time that cannot be read, is past, or is too far ahead."""

    def __init__(self, why: str) -> None:
        super().__init__(f"{why} Write it as 2026-12-01 23:59, or as in 3 days.")


class ClosePassed(BadCloseTime):
    def __init__(self) -> None:
        super().__init__("That time has already passed.")


class CloseTooFar(BadCloseTime):
    def __init__(self, days: int) -> None:
        super().__init__(f"A contest closes within {days} days.")


class CloseUnreadable(BadCloseTime):
    def __init__(self, typed: str) -> None:
        super().__init__(f"I cannot read '{typed[:40]}' as a time.")


class UnknownTimeZone(ContestRefused):
    def __init__(self, zone: str) -> None:
        super().__init__(f"Unknown time zone '{zone[:40]}': write one such as Europe/Paris or UTC.")


class RandomEntry(ContestRefused):
    def __init__(self, name: str, rules: str) -> None:
        super().__init__(
            f"'{name}' answers at random, and {get_rules(rules).name} contests take only strategies that "
            "do not: enter one that always gives the same choice for the same scores."
        )


class NotYourEntry(ContestRefused):
    def __init__(self, name: str, owner: str) -> None:
        super().__init__(f"'{name}' is {owner}'s: enter one of your own strategies (or your partner's).")


class NotEntered(ContestRefused):
    def __init__(self, rules: str) -> None:
        super().__init__(f"You have no entry in the {_contest(rules)}.")


class PartnerRefused(ContestRefused):
    """An invitation that cannot be made or accepted; the text says why, to the one who asked."""


class PartnerYourself(PartnerRefused):
    message = "You cannot be your own partner."


class PartnerBot(PartnerRefused):
    message = "A bot cannot be a partner: invite a person."


class AlreadyEntered(PartnerRefused):
    """Said to an inviter: the one they invite already has an entry."""

    def __init__(self, name: str) -> None:
        super().__init__(
            f"{name} already has an entry in this contest: they would have to leave it before entering "
            "with you."
        )


class AlreadyPaired(PartnerRefused):
    """Said to an inviter who already has a partner."""

    def __init__(self, partner: str) -> None:
        super().__init__(f"You already enter with {partner}: leave the entry first to change partners.")


class YouHaveAnEntry(PartnerRefused):
    """Said to an invitee who accepts while in an entry of their own."""

    def __init__(self, inviter: str) -> None:
        super().__init__(
            f"You already have an entry in this contest: leave it first (`/hog contest leave`), then ask "
            f"{inviter} to invite you again."
        )


class AlreadyPartners(PartnerRefused):
    """Said to an invitee who accepts again: they already enter with the inviter."""

    def __init__(self, inviter: str) -> None:
        super().__init__(f"You already enter with {inviter}.")


class InvitationOvertaken(PartnerRefused):
    """Said to an invitee whose inviter entered with someone else meanwhile."""

    def __init__(self, inviter: str, partner: str) -> None:
        super().__init__(f"{inviter} now enters with {partner}: this invitation is no longer open.")


class InvitationClosed(PartnerRefused):
    """An answer to an invitation already answered (or withdrawn by the close)."""

    message = "This invitation is no longer open."


class NotYourInvitation(PartnerRefused):
    def __init__(self, name: str) -> None:
        super().__init__(f"Only {name} can answer this invitation.")


# Course staff, and what students link for them.


class NotStaff(ServiceError):
    """A staff command asked for by someone who is not course staff on this server; `role`: the server's
    staff role's name, if it has one."""

    def __init__(self, role: str | None) -> None:
        who = "Manage Server" + (f" or the {role} role" if role else "")
        super().__init__(f"Only course staff can do this: members with {who}.")


class NotManager(ServiceError):
    """The staff role chosen by someone without Manage Server."""

    message = "Only members with Manage Server choose the staff role."


class BadCourseId(ServiceError):
    def __init__(self, longest: int) -> None:
        super().__init__(
            f"A course id is 1 to {longest} letters, digits, '.', '_', '-', '+' or '@' (such as your student "
            "id or course email), with no spaces."
        )


# Privacy and analysis.


class StillPlaying(ServiceError):
    """Forget-me while the user still has an open game or challenge."""

    message = "Finish or forfeit your open games and challenges first."


class GameNotOver(ServiceError):
    """An analysis asked for while the game is still open: it would tell the players their live chances."""

    message = (
        "This game is still being played: its analysis would tell both sides their chances. Finish it "
        "first, or take its record so far with `/hog export`."
    )


class NothingToAnalyse(ServiceError):
    """The match has no turns to analyse."""

    message = "No turns were played in this game."


# The local web page (`hog gui`): requests its own page would never send.


class TurnNotYet(ServiceError):
    """A move for a turn the game has not reached: no page ever showed that board."""

    def __init__(self, current: int) -> None:
        super().__init__(f"That turn has not come yet: the game is on turn {current}.")


class BadRequest(ServiceError):
    """A request body that is not the JSON object the endpoint takes; `example` shows one."""

    def __init__(self, example: str) -> None:
        super().__init__(f"Send a JSON object like {example}.")


class RequestTooLarge(ServiceError):
    """A request body over the server's limit (far above any game or record)."""

    def __init__(self, kib: int) -> None:
        super().__init__(f"The request is larger than {kib} KiB: no game record is that long.")


class GameNotKept(MatchNotFound):
    """A game id the page does not hold: one it never gave, or one it forgot for newer games."""

    def __init__(self, kept: int) -> None:
        super().__init__(f"There is no such game here: this page keeps the {kept} games used last.")


class ForeignPage(ServiceError):
    """A request addressed to another host name (a web site rebinding its name to this machine), or sent
    by another web site's page (its browser says so in Origin or Sec-Fetch-Site)."""

    message = "This server answers only its own page, at 127.0.0.1 or localhost."


class NotJson(ServiceError):
    """A request body not declared as JSON: the page always declares it, while another site's page can
    send a body across sites only undeclared (declaring it needs a permission this server never gives)."""

    message = "Send the request body as JSON, with Content-Type: application/json."


class CannotListen(ServiceError):
    """`hog gui` could not have its port (taken, or reserved)."""

    def __init__(self, host: str, port: int, reason: str) -> None:
        super().__init__(f"Cannot serve the page at {host}:{port}: {reason}.")


# Stopping (SIGTERM, docker stop): what is turned away or cut short, and that it may be tried again.


class Restarting(ServiceError):
    """A command or press that came after the bot began to stop: nothing was done."""

    message = "The bot is restarting: nothing was done. Please try again in a minute."


class UploadStopped(ServiceError):
    """An upload cut short because the bot is stopping."""

    message = "The bot is restarting: your file was not stored. Please send it again in a minute."


class TournamentStopped(ServiceError):
    """A tournament cut short because the bot is stopping."""

    message = (
        "The bot is restarting: the tournament was stopped before it finished, and nothing was stored. "
        "Please start it again in a minute."
    )


# The database out of reach (a PostgreSQL server restarting, a file another program keeps locked).


class RecordsUnavailable(ServiceError):
    """The database cannot be reached for now. `saved`: this gesture's change was stored before it went, so
    only showing it failed; `reason` is the driver's words, for the operator's log, never shown."""

    def __init__(self, reason: str, saved: bool = False) -> None:
        super().__init__(
            "That was saved, but I can't reach the game records right now: what you see may lag behind "
            "until they are back."
            if saved
            else "I can't reach the game records right now: nothing was done. Please try again in a minute."
        )
        self.reason = reason
        self.saved = saved


# The Activity (bot/activity/): signing in through Discord, and the table an instance shows.


class SignInNeeded(ServiceError):
    """A request of the Activity's page without a sign-in of ours, or with one that is not ours."""

    message = "Sign in first: open the Activity from Discord."


class SignInExpired(SignInNeeded):
    """A sign-in of ours past its time: the page signs in again by itself."""

    message = "Your sign-in ran out: signing you in again."


class SignInRefused(SignInNeeded):
    """Discord did not take the sign-in code, or the access token it gave (used, expired, forged)."""

    message = "Discord did not accept this sign-in: close the Activity and open it again."


class NotInThisActivity(ServiceError):
    """Someone Discord does not list among the people of the instance they name: a stranger."""

    message = "You are not in this Activity: join it from its channel first."


class ActivityGone(ServiceError):
    """An instance Discord does not know (ended, or never was)."""

    message = "This Activity is not running any more: open it again from the channel."


class NotAServerChannel(ServiceError):
    """An Activity opened in a direct message: Hog's games are played in a server's channels."""

    message = "Hog is played in a server's channels: open the Activity in one of them."


class DiscordUnavailable(ServiceError):
    """Discord could not be asked who someone is (down, slow, or limiting the bot's requests)."""

    message = "Discord cannot be reached right now: nothing was done. Please try again in a moment."


class TooManySignIns(ServiceError):
    """More sign-ins at once than the Activity server takes (each asks Discord three things)."""

    message = "Too many people are signing in at once: please try again in a moment."


class ForeignActivityPage(ServiceError):
    """A request to the Activity server that is not its page's: another origin or host name."""

    message = "This server answers only Hog's Activity page, inside Discord."


class GameOnAtTable(ServiceError):
    """A new game asked for at a table whose game is still on."""

    message = "A game is on at this table: watch it, or start yours once it ends."


class NobodyWaiting(ServiceError):
    """A seat taken at a table where nobody waits for a friend."""

    message = "Nobody is waiting at this table for a friend: start a game yourself."


class OwnTable(ServiceError):
    """The person waiting at a table took the seat across from themselves."""

    message = "You are the one waiting at this table: someone else takes the other seat."


class TableChanged(StaleAction):
    """The table changed between reading it and changing it (another person, or another bot process)."""

    message = "Someone changed this table at the same moment: here it is as it is now."
