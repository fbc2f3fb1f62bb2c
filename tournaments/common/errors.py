"""The errors services raise: user errors as values, each with a stable code.

Views turn them into HTTP answers (``tournaments.api``): :class:`InvalidInput` and
:class:`DealRejected` are 400s naming the field (and, for a deal, the trick, seat and card),
:class:`VersionConflict` is a 409, :class:`Forbidden` a 403. Bugs stay ordinary exceptions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.errors import MalformedRecord, Violation
from rules.messages import register

register({
    "deal_unscored": {
        "fr": "La donne ne peut pas être marquée : {why}.",
        "en": "The deal cannot be scored: {why}.",
    },
    # not "match_over", the games' own code for a deal recorded after the end (scoring/jetons.py), which has
    # no deal number to tell: one code, one text
    "match_ended": {
        "fr": "La partie de cette table est terminée (donne {ended_deal}) : aucune donne ne peut suivre.",
        "en": "This table's match is over (deal {ended_deal}): no deal may follow.",
    },
    "table_full": {
        "fr": "Cette table a déjà ses {limit} donnes.",
        "en": "This table already has its {limit} deals.",
    },
})


class ServiceError(Exception):
    """A user error: ``code`` is stable, ``field`` names the input at fault (a JSON path) when there is one."""

    status = 400
    code = "invalid"

    def __init__(self, message: str, *, field: str | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        if code:
            self.code = code

    def text(self, lang: str = "fr") -> str:
        """The message for people in ``lang``; most service errors have one sentence only."""
        return self.message

    def to_json(self) -> dict[str, Any]:
        return {"error": self.code, "field": self.field, "message": self.message}


def sentence(exc: ServiceError) -> str:
    """A refusal shown on its own, as a sentence: the services' messages may start in lower case, made to follow a
    colon elsewhere (« des donnes ont été saisies… » reads « Des donnes ont été saisies… »)."""
    return exc.message[:1].upper() + exc.message[1:]


class InvalidInput(ServiceError):
    """Input a service cannot accept (a wrong seating, an unknown entry, a CSV line …)."""


class MalformedDeal(ServiceError):
    """The deal record cannot be read (:class:`rules.errors.MalformedRecord`).

    ``message`` is English, ``fr`` French (from the record error); :meth:`text` and
    :meth:`to_json` pick the language (French by default, as the product).
    """

    code = "malformed"

    def __init__(self, message: str, *, field: str | None = None, code: str | None = None,
                 fr: str | None = None) -> None:
        super().__init__(message, field=field, code=code)
        self.fr = fr

    @classmethod
    def wrap(cls, exc: MalformedRecord) -> MalformedDeal:
        return cls(exc.message, field=exc.field, fr=exc.fr)

    def text(self, lang: str = "fr") -> str:
        if lang.lower().startswith("en"):
            return self.message
        return self.fr or self.message

    def to_json(self, lang: str = "fr") -> dict[str, Any]:
        return {"error": self.code, "field": self.field, "message": self.text(lang)}


class DealRejected(ServiceError):
    """The deal breaks rules: nothing was saved. Carries the violations and the verdict JSON."""

    code = "illegal"

    def __init__(self, violations: Sequence[Violation], players: list[str], verdict: dict[str, Any] | None = None):
        self.violations = list(violations)
        self.players = players
        self.verdict = verdict
        first = self.violations[0].message("en", players) if self.violations else "illegal deal"
        super().__init__(first)

    def violations_json(self, lang: str = "fr") -> list[dict[str, Any]]:
        return [v.to_json(lang, self.players) for v in self.violations]

    def to_json(self, lang: str = "fr") -> dict[str, Any]:
        violations = self.violations_json(lang)
        first = violations[0] if violations else {}
        return {
            "error": self.code,
            "message": first.get("message", "illegal deal"),
            "violations": violations,
            "verdict": self.verdict,
        }


class VersionConflict(ServiceError):
    """The edit was based on a version that is no longer the current one."""

    status = 409
    code = "stale_version"

    def __init__(self, message: str, *, current_version: int) -> None:
        super().__init__(message, field="version")
        self.current_version = current_version

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "current_version": self.current_version}


class PreconditionFailed(ServiceError):
    """An ``If-Match`` that cannot match (a weak ETag): the change is refused, 412."""

    status = 412
    code = "precondition_failed"


class StateConflict(ServiceError):
    """The object is not in a state that allows the action (annulled deal, finished tournament …)."""

    status = 409
    code = "conflict"


class IdempotencyMismatch(ServiceError):
    """The same Idempotency-Key was sent with a different request."""

    status = 422
    code = "idempotency_key_reused"


class Forbidden(ServiceError):
    status = 403
    code = "forbidden"
