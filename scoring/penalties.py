"""Penalty presets: the penalties the rule texts give as fixed amounts, shipped as data.

Pure Python (no Django). The chief arbiter may pick a preset instead of typing the adjustment of a
ruling; :func:`adjustments` turns a preset and the offender into points per entry. Only what the
texts of ``RULES.md`` state is here:

* **Triomphe** (§2.6 rules 20–21, [ADP-TRI], A-R9) — misdeal: the dealer loses one of his points if
  he has any, otherwise the opponents score one; playing out of turn −1; failing to take a card
  (« lever ») when able −1; failing to trump −1 (the text is truncated, A-R9 fixes −1). The engaged
  vole not made (−2, rule 21 / rule 11) is not a preset: the match scoring marks it from the deal.
* **L'Impériale** (§4.5, [AUJ-IMP] rules IV and X, A-I10) — a misdeal: the dealer loses the deal and
  one impériale; a player who could take a card played and does not loses one impériale. With
  A-I10, a player who has no impériale to lose gives one to each opponent instead. Rule VI (mixing
  one's hand into the talon) loses the *game*: not an amount — the arbiter decides (annul / forfeit),
  so it is listed in :data:`NOT_PRESETS`, not as a preset.
* **L'Écarté** (§3.5, [CAV]): none. Law 42 (abandoning the hand concedes the point, or the vole
  with no trick) is the *result of the deal*, which belongs in the deal record (the match race);
  law 43 (renounce / not winning the trick when able) lets the adversary have the hand replayed and
  reduces what the offender marks — not a fixed amount. Laws 40, 41, 45 carry no points.
* **Le Vingt-quatre** (§5): the text gives no irregularity rule — none.
* **Tarot**: none. The FFT *Code d'arbitrage* tables are not available (§1.13 rules 38 and 40,
  A-T10): no fixed penalty is invented; the arbiter types the adjustment.

Units are those of the game's score rows: Triomphe and Écarté points; Impériale **fiches**
(impériales: ``scoring/imperiale.py`` scores each deal in fiches gained, so one impériale is 1);
Vingt-quatre jetons; Tarot FFT marks.

Who gets the points: the offender's *party* — himself, or every member of his team when the game
is played by teams (Triomphe ``options.teams``: each member carries the team's points). "The
opponents score one" gives one to each player of every other party (as ``scoring/imperiale.py``
does for A-I10 at three players).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)

LOSE = "lose"
"""The offender's party loses ``amount`` points (scores may go negative)."""
LOSE_OR_OPPONENTS_SCORE = "lose_or_opponents_score"
"""The offender's party loses ``amount`` if the offender has at least that much, else each opponent scores it."""


@dataclass(frozen=True)
class Preset:
    """One penalty the texts fix: who pays, how much, and where it is written."""

    code: str
    game: str
    label_fr: str
    label_en: str
    rule: str
    """The rule reference, e.g. ``"ADP-TRI, RULES.md §2.6 rule 21"``."""
    amount: int
    """Points (in the game's score-row units) lost by the offender's party, or scored by each opponent."""
    effect: str
    """:data:`LOSE` or :data:`LOSE_OR_OPPONENTS_SCORE`."""
    offender_fr: str
    offender_en: str
    """Who the offender is (« le donneur », « le joueur fautif »)."""
    kind: str
    """The ruling kind it is filed under (``Ruling.Kind`` values: misdeal, renonce, other): a card not taken, not
    trumped when able is a renonce, as the irregular deals' violations say (``tournaments.common.games.is_renonce``)."""

    @property
    def in_imperiales(self) -> bool:
        """Whether ``amount`` counts impériales (L'Impériale's score rows are fiches), not points."""
        return self.game == "imperiale"

    @property
    def deal_counts(self) -> bool:
        """Whether the deal the fault happened in still counts as played, the penalty added to its marks.

        The texts give a fault in play (playing out of turn, not taking or not trumping when able: ADP-TRI, RULES.md
        §2.6 rule 21; AUJ-IMP rule X) as a point lost by the offender, beside the engaged vole not made, which is
        the deal's own mark: the deal is played to its end and scored, and the offender pays on top. A misdeal
        (§2.6 rule 20; AUJ-IMP rule IV: « perd la donne ») is dealt again: the deal does not count, only the
        penalty does."""
        return self.kind != "misdeal"

    def label(self, lang: str = "fr") -> str:
        return self.label_en if lang.lower().startswith("en") else self.label_fr

    def who(self, lang: str = "fr") -> str:
        return self.offender_en if lang.lower().startswith("en") else self.offender_fr


PRESETS: tuple[Preset, ...] = (
    Preset("triomphe_misdeal", "triomphe", "Maldonne", "Misdeal", "ADP-TRI, RULES.md §2.6 rule 20", 1,
           LOSE_OR_OPPONENTS_SCORE, "le donneur", "the dealer", "misdeal"),
    Preset("triomphe_out_of_turn", "triomphe", "Jeu hors tour", "Playing out of turn",
           "ADP-TRI, RULES.md §2.6 rule 21", 1, LOSE, "le joueur fautif", "the offender", "other"),
    Preset("triomphe_failed_to_take", "triomphe", "Carte non levée (pouvant lever)",
           "Failing to take a card when able", "ADP-TRI, RULES.md §2.6 rule 21", 1, LOSE,
           "le joueur fautif", "the offender", "renonce"),
    Preset("triomphe_failed_to_trump", "triomphe", "Refus de couper", "Failing to trump",
           "ADP-TRI, RULES.md §2.6 rule 21 (décision A-R9)", 1, LOSE, "le joueur fautif", "the offender",
           "renonce"),
    Preset("imperiale_misdeal", "imperiale", "Maldonne : le donneur perd la donne et une impériale",
           "Misdeal: the dealer loses the deal and one impériale", "AUJ-IMP règle IV (RULES.md §4.5, A-I10)", 1,
           LOSE_OR_OPPONENTS_SCORE, "le donneur", "the dealer", "misdeal"),
    Preset("imperiale_failed_to_take", "imperiale", "Carte non prise (pouvant la prendre)",
           "Failing to take a card played when able", "AUJ-IMP règle X (RULES.md §4.5, A-I10)", 1,
           LOSE_OR_OPPONENTS_SCORE, "le joueur fautif", "the offender", "renonce"),
)

NOT_PRESETS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "imperiale": (
        ("AUJ-IMP règle VI (RULES.md §4.5)",
         "Mêler ses cartes au talon fait perdre la partie : annulation ou forfait, à la décision de l'arbitre.",
         "Mixing one's hand into the talon loses the game: annul or forfeit, the arbiter's decision."),
    ),
}
"""Sanctions the texts give that are not amounts of points: game → (rule, French, English)."""

GAMES_WITHOUT_PRESETS: dict[str, tuple[str, str]] = {
    # the texts behind them: Tarot RULES.md §1.13 rules 38 and 40, decision A-T10; Écarté CAV laws 42 and 43
    # (RULES.md §3.5); Vingt-quatre RULES.md §5. The words are shown to the arbiter: no reference in them.
    # Tarot: no amount in the texts at hand, none invented; said as what the chief does (a walk read « le code
    # d'arbitrage de la Fédération française de tarot n'est pas disponible » on his screen, a note for developers)
    "tarot": ("Vous saisissez les marques de chacun, avec le motif de votre décision.",
              "You type each player's marks, with the reason for your decision."),
    "ecarte": ("Les lois de l'Écarté ne fixent pas de montant de pénalité : l'abandon concède le point ou la vole "
               "(résultat de la donne), la renonce fait rejouer la main.",
               "The laws of Écarté fix no penalty amount: an abandoned hand concedes the point or the vole (the "
               "deal's result), a renounce lets the hand be replayed."),
    "vingt-quatre": ("Le texte du Vingt-quatre ne donne aucune règle d'irrégularité.",
                     "The Vingt-quatre text gives no irregularity rule."),
}
"""Why a game has no preset (French, English)."""

_BY_CODE = {p.code: p for p in PRESETS}


def presets_for(game: str, options: Mapping[str, object] | None = None) -> tuple[Preset, ...]:
    """The presets of one game under its options, in the order of the texts (empty for Tarot, Écarté,
    Vingt-quatre). L'Impériale with ``penalty_imperiale`` has none: its match scoring already takes the
    impériale of rules IV and X from the deal, and a preset would take it twice."""
    if game == "imperiale" and (options or {}).get("penalty_imperiale"):
        return ()
    return tuple(p for p in PRESETS if p.game == game)


def preset(code: str) -> Preset | None:
    """The preset of that code, or None."""
    return _BY_CODE.get(code)


@dataclass(frozen=True)
class Adjustment(Generic[K]):
    """What a preset gives: points per entry (non-zero only), whether it is a penalty (not zero-sum) and the
    branch taken (``"lose"`` or ``"opponents_score"``)."""

    points: dict[K, int]
    is_penalty: bool
    branch: str


def adjustments(p: Preset, *, offender: K, seats: Sequence[K], totals: Mapping[K, int] | None = None,
                parties: Sequence[Sequence[K]] | None = None) -> Adjustment[K]:
    """Turn a preset and the offender into points per entry.

    ``seats``: the entries at the table; ``totals``: each entry's points so far at the table (needed by
    :data:`LOSE_OR_OPPONENTS_SCORE`: "if he has any"); ``parties``: the teams as lists of entries when the
    game is played by teams (else each entry is its own party).
    """
    seats = list(seats)
    if offender not in seats:
        raise ValueError(f"the offender {offender!r} is not at the table")
    own = next((list(party) for party in parties or () if offender in party), [offender])
    opponents = [s for s in seats if s not in own]
    has = (totals or {}).get(offender, 0)
    if p.effect == LOSE or (p.effect == LOSE_OR_OPPONENTS_SCORE and has >= p.amount):
        points = {s: -p.amount for s in own}
        branch = "lose"
    elif p.effect == LOSE_OR_OPPONENTS_SCORE:
        points = {s: p.amount for s in opponents}
        branch = "opponents_score"
    else:  # pragma: no cover - data error
        raise ValueError(f"unknown effect {p.effect!r}")
    points = {k: v for k, v in points.items() if v}
    return Adjustment(points, sum(points.values()) != 0, branch)
