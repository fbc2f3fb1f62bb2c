"""The English of the deal-entry descriptions (:mod:`rules.entry`): the game modules write their labels in French, the
words of the table; an English page gets this translation of the same description, field by field, and the pack's
cards by their English names and letters (K Q J for R D V). The French text stays the key: a label a module adds
without its English here is shown in French, and ``tests/rules/test_entry_english.py`` fails on it."""

from __future__ import annotations

import re
from typing import Any

from .cards import CardCodeError, card_name, parse_card

EN: dict[str, str] = {
    "Le donneur a retourné le roi": "The dealer turned up the king",
    "Un roi retourné marque 1 point au donneur.": "A king turned up scores 1 point for the dealer.",
    "Échange refusé par": "Exchange declined by",
    "Personne : des cartes ont été échangées": "Nobody: cards were exchanged",
    "Le premier en main qui a joué d'autorité, ou le joueur qui a refusé la première proposition : c'est ce qui "
    "décide du point de refus.": "The first hand who played without exchanging, or the player who refused the "
                                 "first proposal: it decides the point for refusal.",
    "Abandon accepté": "Concession accepted",
    "Abandon du point": "Point conceded",
    "Abandon et vole": "Concession and vole",
    "Accepté (combien ?)": "Accepted (how many?)",
    "Accepté : l'autre camp marque 1 et le coup s'arrête. Refusé : le camp qui refuse doit faire la vole (+2) ou "
    "perd 2.": "Accepted: the other side scores 1 and the deal stops. Refused: the refusing side must take every "
               "trick (+2) or loses 2.",
    "Action": "Action",
    "Annonces": "Announcements",
    "As, roi, dame, valet d'une couleur ; ou quatre valets, dames, rois, as ou sept.":
        "Ace, king, queen, jack of a suit; or four jacks, queens, kings, aces or sevens.",
    "As, roi, dame, valet d'une couleur ; ou quatre valets, dames, rois, as ou six.":
        "Ace, king, queen, jack of a suit; or four jacks, queens, kings, aces or sixes.",
    "Atouts montrés (facultatif)": "Trumps shown (optional)",
    "Au lieu des plis, quand ils n'ont pas été notés ; les propositions restent à dire.":
        "Instead of the tricks, when they were not written down; the proposals are still to be given.",
    "Au lieu des plis, quand ils n'ont pas été notés.": "Instead of the tricks, when they were not written down.",
    "Aucun point n'est déclaré, alors que chaque donne a un point : déclarez son gagnant et son nombre de cartes, "
    "ou cochez « Point non compté ».": "No Point is declared, and every deal has one: give its winner and its "
                                       "number of cards, or tick « Point not counted ».",
    "Avant la première carte": "Before the first card",
    "Les plis de chaque joueur : seul le total de son camp compte.":
        "The tricks of each player: only his side's total counts.",
    "Bouts du camp du preneur": "Bouts of the taker's side",
    "Camp qui abandonne (en jouant sa première carte)": "Side that concedes (when playing its first card)",
    "Cartes blanches": "Blank hands (cartes blanches)",
    "Cartes de la séquence": "Cards of the sequence",
    "Cartes montrées": "Cards shown",
    "Cartes reprises (facultatif si le talon est donné)": "Cards drawn (optional when the stock is given)",
    "Cartes écartées": "Cards discarded",
    "Chelem annoncé": "Chelem announced",
    "Chelem réalisé": "Chelem made",
    "Chien": "Dog (chien)",
    "Chien et écart": "Dog and discard",
    "Cinq cartes ou plus d'une couleur qui se suivent (as, 2 … 10, valet, dame, roi).":
        "Five or more cards of a suit in sequence (ace, 2 … 10, jack, queen, king).",
    "Contrat": "Contract",
    "Donne": "Deal",
    "Donneur": "Dealer",
    "Double (13 atouts)": "Double (13 trumps)",
    "Double (15 atouts)": "Double (15 trumps)",
    "En jouant sa première carte": "When playing his first card",
    "Enchères": "Bidding",
    "Excuse": "Excuse",
    "Facultatif : déduit des mains quand elles sont données.": "Optional: found from the hands when they are given.",
    "Gagnant du point": "Winner of the Point",
    "Garde": "Garde",
    "Garde contre le chien": "Garde contre le chien",
    "Garde sans le chien": "Garde sans le chien",
    "Honneurs de cette donne": "Honours of this deal",
    "Honneurs du pli": "Honours in the trick",
    "Honneurs levés, dans l'ordre": "Honours taken, in order",
    "Impériales en main": "Impériales in hand",
    "Je joue": "I play",
    "Je propose (cartes)": "I propose (cards)",
    "Jeu de la carte": "Card play",
    "Joueur": "Player",
    "Joueur qui l'annonce": "Player who announces it",
    "Joueur qui lève": "Player who takes it",
    "Joueurs qui ont montré douze cartes sans roi, dame ni valet : le coup n'est pas joué.":
        "Players who showed twelve cards without king, queen or jack: the deal is not played.",
    "L'annonce compte au plus tard en jouant sa première carte.":
        "The announcement counts at the latest when playing one's first card.",
    "La carte retournée sur le talon : sa couleur est l'atout.": "The card turned up on the stock: its suit is trumps.",
    "La dernière carte du donneur, montrée : elle reste dans sa main et fixe l'atout.":
        "The dealer's last card, shown: it stays in his hand and sets trumps.",
    "La défense": "The defence",
    "La poignée se montre avant de jouer sa première carte.": "The poignée is shown before playing one's first card.",
    "Laisser vide : le point est trouvé dans les mains, ou n'est pas marqué sans elles.":
        "Leave empty: the Point is found in the hands, or not scored without them.",
    "Le camp du preneur": "The taker's side",
    "Le camp qui a fait les trois premières levées baisse ses cartes et marque 1 ; s'il entame la quatrième, la vole "
    "est engagée.": "The side that took the first three tricks lays down its cards and scores 1; if it leads the "
                    "fourth, the vole is engaged.",
    "Le camp qui a fait les trois premières levées, les autres n'en ayant aucune, a entamé la quatrième.":
        "The side that took the first three tricks, the others none, led the fourth.",
    "Le point": "The Point",
    "Le premier en main joue ou propose ; chaque autre accepte ou refuse ; un refus fait jouer. Après un tour "
    "d'écart, le premier en main joue ou propose encore.": "The first hand plays or proposes; each other accepts "
        "or refuses; a refusal makes them play. After a round of discards, the first hand plays or proposes again.",
    "Le preneur entame alors le premier pli.": "The taker then leads the first trick.",
    "Les cartes restantes, de la première à piocher à la dernière.": "The remaining cards, from the first to draw to "
                                                                     "the last.",
    "Les cartes sous la retourne, de la première à piocher à la dernière.":
        "The cards under the turn-up, from the first to draw to the last.",
    "Ni roi ni bout ; des atouts seulement s'il ne peut faire autrement.":
        "No king nor bout; trumps only when there is no other way.",
    "Nombre de cartes": "Number of cards",
    "Personne": "Nobody",
    "Petit au bout": "Petit au bout",
    "Petite": "Petite",
    "Plis gagnés par chaque joueur": "Tricks won by each player",
    "Poignée": "Poignée",
    "Poignées": "Poignées",
    "Point non compté": "Point not counted",
    "Points de cartes comptés par le camp du preneur : demi-points permis (40,5).":
        "Card points counted by the taker's side: half points allowed (40.5).",
    "Points de cartes comptés par le camp du preneur : un nombre entier à quatre joueurs.":
        "Card points counted by the taker's side: a whole number at four players.",
    "Points du camp du preneur": "Points of the taker's side",
    "Preneur": "Taker",
    "Propositions et écart": "Proposals and discard",
    "Propositions, réponses et écarts, dans l'ordre": "Proposals, answers and discards, in order",
    "Quand": "When",
    "Refusé (jouez)": "Refused (play)",
    "Retourne": "Turn-up",
    "Résumé de la donne": "Summary of the deal",
    "Sa couleur est l'atout ; elle n'est dans aucune main.": "Its suit is trumps; it is in no hand.",
    "Sa couleur est l'atout ; un roi retourné marque 1 point au donneur.":
        "Its suit is trumps; a king turned up scores 1 point for the dealer.",
    "Sa couleur est la triomphe (l'atout).": "Its suit is the triomphe (trumps).",
    "Seules les impériales montrées comptent.": "Only the impériales shown count.",
    "Simple (10 atouts)": "Simple (10 trumps)",
    "Simple (13 atouts)": "Simple (13 trumps)",
    "Séquences": "Sequences",
    "Talon (facultatif)": "Stock (optional)",
    "Triple (15 atouts)": "Triple (15 trumps)",
    "Triple (18 atouts)": "Triple (18 trumps)",
    "Valeur (facultative)": "Value (optional)",
    "Virade": "Turn-up (virade)",
    "Vole engagée": "Vole engaged",
    "Vole non engagée : cartes baissées après les trois premières levées":
        "Vole not engaged: cards laid down after the first three tricks",
    "Écart du preneur": "Taker's discard",
    "Roi d'atout": "King of trumps",
    "Roi d'atout annoncé": "King of trumps announced",
    "Aux figures (9, 10, valet, dame, roi d'atout)": "« Aux figures » (9, 10, jack, queen, king of trumps)",
    "Au point (as, 2, 3, 4, 5 d'atout)": "« Au point » (ace, 2, 3, 4, 5 of trumps)",
    "Écart et reprise": "Discard and draw",
}

_PATTERNS = (
    (re.compile(r"^(\d+) plis, carte par carte ; le gagnant de chaque pli entame le suivant\.$"),
     r"\1 tricks, card by card; the winner of each trick leads the next."),
    (re.compile(r"^Au pli (\d+) \(trop tard\)$"), r"At trick \1 (too late)"),
    (re.compile(r"^Les honneurs sont (.*)\. L'ordre compte : (.*)\.$"), None),
)
_LETTERS = {"R": "K", "D": "Q", "V": "J", "C": "C", "A": "A"}


def english_text(text: str) -> str:
    """One French text of a description in English (the French itself when none is known)."""
    if text in EN:
        return EN[text]
    for pattern, replacement in _PATTERNS:
        if replacement is not None and pattern.match(text):
            return pattern.sub(replacement, text)
    if text.startswith("Les honneurs sont "):
        honours = "the five agreed trumps (« aux figures »: 9, 10, jack, queen, king; « au point »: ace, 2, 3, 4, 5)"
        if "six jetons" in text:
            return (f"The honours are {honours}. The order counts: the first to six jetons (twenty-four points) "
                    "wins the partie at once.")
        return ("The honours are the ace, king, queen, jack and " + ("six" if "le six" in text else "seven")
                + " of trumps. The order counts: the first to an impériale (or to the target) wipes out or wins at "
                  "once.")
    return text


def _card_en(code: str) -> str | None:
    try:
        return card_name(parse_card(code), "en")
    except CardCodeError:
        return None


def english(description: Any) -> Any:
    """A description's JSON (:meth:`rules.entry.EntryForm.to_json`) with every text for people in English."""
    if isinstance(description, list):
        return [english(item) for item in description]
    if not isinstance(description, dict):
        return description
    out = {}
    for key, value in description.items():
        if key in ("label", "help", "nullable", "remind") and isinstance(value, str):
            out[key] = english_text(value)
        else:
            out[key] = english(value)
    if "code" in out and "suit" in out and "name" in out:  # a card of the pack
        out["name"] = _card_en(out["code"]) or out["name"]
        label = out.get("label", "")
        if label[:1] in _LETTERS and label != "Excuse":
            out["label"] = _LETTERS[label[0]] + label[1:]
    elif "value" in out and isinstance(out.get("value"), str) and "label" in out:  # a card as a choice
        name = _card_en(out["value"]) if re.match(r"^(?:[2-9]|10|[AKQJC])[SHDC]$|^T\d+$|^EX$", out["value"]) else None
        if name:
            out["label"] = name
    return out
