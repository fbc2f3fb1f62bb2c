"""The sentences behind rule codes, in French and English.

Common codes are declared here; each game module declares its own with
:func:`register` at import time. Templates use ``str.format`` fields: ``{who}``
(the player's name), ``{card}`` (the card's name), ``{trick}``, ``{deal}`` (from 1)
and the violation's parameters. A code whose params hold seat numbers names them in ``seats`` (space-separated)
and gives ``fr_named`` / ``en_named`` texts, used when the players' names are known (« c'était à Ana de donner »).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_CATALOGUE: dict[str, dict[str, str]] = {}


def register(messages: Mapping[str, Mapping[str, str]]) -> None:
    """Declare the French (``fr``) and English (``en``) templates of rule codes.

    A code may be declared again by another module only with the same texts: one code, one sentence (a
    second text would silently replace the first for every game, its fields left as « ? »).
    """
    for code, texts in messages.items():
        if "fr" not in texts or "en" not in texts:
            raise ValueError(f"rule code {code!r} needs both a French and an English message")
        known = _CATALOGUE.get(code)
        if known is not None and known != dict(texts):
            raise ValueError(f"rule code {code!r} is already declared with other texts")
        _CATALOGUE[code] = dict(texts)


def known_codes() -> frozenset[str]:
    """Every rule code that has a message."""
    return frozenset(_CATALOGUE)


class _Lenient(dict):  # type: ignore[type-arg]
    def __missing__(self, key: str) -> str:
        return "?"


_DECIMAL = re.compile(r"-?\d+\.\d+")


def _french(value: Any) -> Any:
    """A decimal number the French way, « 40,5 » (a float, or a text such as ``"40.5"``); anything else as it is."""
    if isinstance(value, float):
        value = repr(value)
    if isinstance(value, str) and _DECIMAL.fullmatch(value):
        return value.replace(".", ",")
    return value


def seats_named(code: str, values: Mapping[str, Any], players: list[str] | None) -> dict[str, Any] | None:
    """The values with the seats a code's ``seats`` params hold (1-based numbers, « 1 ou 3 ») named by the players'
    names, for its ``fr_named`` / ``en_named`` texts; None when a number names no player (or no names are known)."""
    texts = _CATALOGUE.get(code) or {}
    keys = texts.get("seats", "").split()
    if not players or not keys:
        return None
    out = dict(values)
    for key in keys:
        numbers = str(values.get(key, "")).split(" ou ")
        if not all(n.isdigit() and 1 <= int(n) <= len(players) for n in numbers):
            return None
        out[key] = [players[int(n) - 1] for n in numbers]
    return out


def render(code: str, values: Mapping[str, Any], lang: str = "fr", *, named: bool = False) -> str:
    """The sentence of a rule code with its values; unknown codes fall back to the code itself. In French a
    decimal value is written with a comma (« 40,5 points »); the params themselves stay as programs read them.
    ``named``: the values come from :func:`seats_named` (lists of names), the code's ``*_named`` text is used."""
    texts = _CATALOGUE.get(code)
    if texts is None:
        return code
    if named and f"{lang if lang in texts else 'fr'}_named" in texts:
        lang_key = lang if lang in texts else "fr"
        joiner = " ou à " if lang_key == "fr" else " or "
        values = {k: joiner.join(v) if isinstance(v, list) else v for k, v in values.items()}
        return texts[f"{lang_key}_named"].format_map(_Lenient(values))
    template = texts.get(lang) or texts["fr"]
    french = not (lang in texts and lang != "fr")
    shown = {k: _french(v) if french else v for k, v in values.items() if v is not None}
    return template.format_map(_Lenient(shown))


register({
    # Hands and ownership
    "not_in_hand": {
        "fr": "{who} joue {card}, qui n'est pas dans sa main.",
        "en": "{who} plays {card}, which is not in their hand.",
    },
    "card_played_twice": {
        "fr": "{who} joue {card} une seconde fois : cette carte a déjà été jouée au pli {first_trick}.",
        "en": "{who} plays {card} a second time: it was already played at trick {first_trick}.",
    },
    "card_not_in_pack": {
        "fr": "{card} n'appartient pas au jeu de {pack} cartes de cette partie.",
        "en": "{card} is not part of this game's {pack}-card pack.",
    },
    "duplicate_card": {
        "fr": "{card} figure deux fois dans la donne ({where}).",
        "en": "{card} appears twice in the deal ({where}).",
    },
    "wrong_hand_size": {
        "fr": "{who} a reçu {count} cartes au lieu de {expected}.",
        "en": "{who} was dealt {count} cards instead of {expected}.",
    },
    "wrong_talon_size": {
        "fr": "Le talon compte {count} cartes au lieu de {expected}.",
        "en": "The talon holds {count} cards instead of {expected}.",
    },
    "wrong_trick_size": {
        "fr": "Le pli compte {count} cartes au lieu de {expected}.",
        "en": "The trick holds {count} cards instead of {expected}.",
    },
    "too_many_tricks": {
        "fr": "La donne compte {count} plis ; il n'y en a que {expected} dans une donne.",
        "en": "The deal has {count} tricks; a deal has only {expected}.",
    },
    "incomplete_trick": {
        "fr": "Le pli n'est pas complet ({count} cartes sur {expected}) alors que d'autres plis suivent.",
        "en": "The trick is incomplete ({count} cards of {expected}) although more tricks follow.",
    },
    "revoke": {
        "fr": "Renonce : {who} a joué {card} sans fournir à {led} alors que sa main contenait {proof} "
              "(carte jouée au pli {proof_trick}).",
        "en": "Revoke: {who} played {card} without following {led_en}, while holding {proof} "
              "(played at trick {proof_trick}).",
    },
    "revoke_trump": {
        "fr": "Renonce : {who} a joué {card} sans couper alors que sa main contenait {proof} "
              "(carte jouée au pli {proof_trick}).",
        "en": "Revoke: {who} played {card} without trumping, while holding {proof} "
              "(played at trick {proof_trick}).",
    },
    "revoke_overtrump": {
        "fr": "{who} a joué {card} alors que sa main contenait {proof} (carte jouée au pli {proof_trick}), "
              "qui l'obligeait à jouer plus haut.",
        "en": "{who} played {card} while holding {proof} (played at trick {proof_trick}), which obliged "
              "them to play higher.",
    },
    "inconsistent_play": {
        "fr": "{who} a joué {card} alors que sa main contenait {proof} (carte jouée au pli {proof_trick}) : "
              "la règle l'obligeait à jouer autrement.",
        "en": "{who} played {card} while holding {proof} (played at trick {proof_trick}): "
              "the rules obliged them to play otherwise.",
    },
    # the tap page's note under the pack when the marked cards are forbidden because each would prove an earlier
    # play wrong: the earlier play, no card of the pack named (each marked card has its own sentence)
    "revoke_note": {
        "fr": "{who} a joué {card} sans fournir à {led} : une carte marquée, jouée maintenant, prouverait une renonce.",
        "en": "{who} played {card} without following {led_en}: a marked card, played now, would prove a revoke.",
    },
    "revoke_trump_note": {
        "fr": "{who} a joué {card} sans couper : une carte marquée, jouée maintenant, prouverait une renonce.",
        "en": "{who} played {card} without trumping: a marked card, played now, would prove a revoke.",
    },
    "revoke_overtrump_note": {
        "fr": "{who} a joué {card} : une carte marquée, jouée maintenant, montrerait que la règle l'obligeait à "
              "jouer plus haut.",
        "en": "{who} played {card}: a marked card, played now, would show the rules obliged them to play higher.",
    },
    "inconsistent_play_note": {
        "fr": "{who} a joué {card} : une carte marquée, jouée maintenant, montrerait que la règle l'obligeait à "
              "jouer autrement.",
        "en": "{who} played {card}: a marked card, played now, would show the rules obliged them to play otherwise.",
    },
    # Play obligations (shared by several games)
    "must_follow": {
        "fr": "{who} doit fournir à {led} : sa main contient {example}.",
        "en": "{who} must follow {led_en}: they hold {example}.",
    },
    "must_follow_higher": {
        "fr": "{who} doit fournir à {led} et forcer : sa main contient {example}, qui bat {best}.",
        "en": "{who} must follow {led_en} and beat {best}: they hold {example}.",
    },
    "must_trump": {
        "fr": "{who} n'a pas de {led} et doit couper : sa main contient {example}.",
        "en": "{who} has no {led_en} and must trump: they hold {example}.",
    },
    "must_overtrump": {
        "fr": "{who} doit surcouper : sa main contient {example}, qui bat {best}.",
        "en": "{who} must overtrump: they hold {example}, higher than {best}.",
    },
    "must_undertrump": {
        "fr": "{who} ne peut pas surcouper mais doit tout de même jouer atout : sa main contient {example}.",
        "en": "{who} cannot overtrump but must still play a trump: they hold {example}.",
    },
    "must_go_higher": {
        "fr": "{who} doit monter à l'atout : sa main contient {example}, qui bat {best}.",
        "en": "{who} must play a higher trump: they hold {example}, higher than {best}.",
    },
    "must_play_trump": {
        "fr": "{who} doit jouer atout : sa main contient {example}.",
        "en": "{who} must play a trump: they hold {example}.",
    },
    "must_head": {
        "fr": "{who} doit prendre la main : sa main contient {example}, qui bat {best}.",
        "en": "{who} must win the trick: they hold {example}, which beats {best}.",
    },
    "not_your_turn": {
        "fr": "Ce n'est pas à {who} de jouer.",
        "en": "It is not {who}'s turn to play.",
    },
    "deal_over": {
        "fr": "La donne est terminée : plus aucune carte ne peut être jouée.",
        "en": "The deal is over: no more cards may be played.",
    },
})
