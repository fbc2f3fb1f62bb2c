"""Correcting the register: edit a player, remove an entry registered by mistake, merge a person registered twice.

Every write keeps who, when and why in the models' history (django-simple-history on :class:`Player` and
:class:`Entry`: ``history_user``, ``history_date``, ``history_change_reason``), and tells the standings through
:func:`tournaments.common.hooks.scores_changed` inside its transaction.

Decisions (issue 20):

* **edit** (:func:`player_update`): name, club and licence of the person (shared by all his tournaments). A
  licence is unique: taken by another player, the edit is refused naming him. The deals already entered keep
  the names they were recorded with (a record is what the table signed).
* **remove** (:func:`entry_remove`): an entry registered by mistake disappears, with its seats in rounds drawn
  but not started (those tables are then left one short: the page says to redraw them). Once the player has
  played a deal (a seat at a table with a deal, a score row, a forfeit or an artificial result) it is refused:
  a player who goes is an « abandon », his deals stay (:func:`tournaments.event.middle.player_leaves`).
* **merge** (:func:`players_merge`): two entries of one tournament that are the same person. The kept entry
  takes everything the other one holds — seats, score rows, rulings, forfeits, answers, links, ranking lines
  (found through the models' relations to :class:`Entry`, so that this package does not import those above
  it) — unless both have a seat in the same round (a person plays a round once): refused, naming the round.
  The kept player keeps his name; he takes the other's club or licence where his own is empty. The other
  player disappears when he has no entry left elsewhere (his other tournaments are not this organizer's).
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from simple_history.models import HistoricalChanges

from tournaments.common import games, hooks
from tournaments.common.elision import with_name
from tournaments.common.errors import InvalidInput, StateConflict
from tournaments.event.models import Entry, Player, Seat, Table

NAME_MAX, CLUB_MAX, LICENCE_MAX = 120, 120, 40


def _why(obj: models.Model, user: Any, reason: str) -> None:
    """Tell django-simple-history who makes the next save or delete of ``obj``, and why."""
    obj._change_reason = (reason or "").strip() or None  # type: ignore[attr-defined]
    if user is not None and getattr(user, "is_authenticated", False):
        obj._history_user = user  # type: ignore[attr-defined]


def _clean(value: str, *, field: str, limit: int, required: bool = False) -> str:
    value = " ".join((value or "").split())
    if required and not value:
        raise InvalidInput(_("Écrivez le nom du joueur."), field=field)
    if len(value) > limit:
        raise InvalidInput(_("At most %(n)s characters.") % {"n": limit}, field=field)
    return value


@transaction.atomic
def player_update(*, player: Player, name: str, club: str = "", licence: str = "", user: Any = None,
                  reason: str = "") -> Player:
    """Change a player's name, club and licence (kept in his history with who and why)."""
    name = _clean(name, field="name", limit=NAME_MAX, required=True)
    club = _clean(club, field="club", limit=CLUB_MAX)
    licence = _clean(licence, field="licence", limit=LICENCE_MAX)
    if licence and not licence.replace("-", "").replace(" ", "").isalnum():
        raise InvalidInput(_("« %(licence)s » n'est pas un numéro de licence.") % {"licence": licence},
                           field="licence")
    if licence:
        other = Player.objects.filter(licence=licence).exclude(pk=player.pk).first()
        if other is not None:
            raise InvalidInput(with_name(_("La licence %(licence)s est déjà celle de %(name)s%(club)s : s'il s'agit "
                                           "de la même personne, fusionnez les deux fiches."), other.name,
                                         licence=licence, club=f" ({other.club})" if other.club else ""),
                               field="licence")
    locked = Player.objects.select_for_update().get(pk=player.pk)
    if (locked.name, locked.club, locked.licence) == (name, club, licence):
        return locked
    locked.name, locked.club, locked.licence = name, club, licence
    _why(locked, user, reason)
    locked.save()
    for tournament_id in set(locked.entries.values_list("tournament_id", flat=True)):
        hooks.scores_changed(tournament_id)  # the names of the ranking and results files
    player.name, player.club, player.licence = name, club, licence
    return locked


def entry_has_played(entry: Entry) -> bool:
    """Whether anything was played or ruled for this entry: a deal at one of his tables, a score row, a forfeit
    or absence, an artificial result (duplicate). Such an entry cannot be removed, only withdrawn."""
    if Seat.objects.filter(entry=entry, table__deals__isnull=False).exists():
        return True
    return any(manager.filter(**{name: entry}).exists() for manager, name in _played_relations())


def _played_relations() -> list[tuple[Any, str]]:
    """The rows, in packages above this one, that say an entry played: score rows, forfeits, artificial results
    (read through the relations Django knows, by their related names)."""
    out = []
    for rel in Entry._meta.get_fields(include_hidden=False):
        if getattr(rel, "get_accessor_name", None) and rel.get_accessor_name() in PLAYED:
            out.append((rel.related_model._base_manager, rel.field.name))
    return out


#: related names of :class:`Entry` whose rows mean the entry has played (or was ruled on)
PLAYED = frozenset({"score_rows", "forfeits", "artificial_results"})


@transaction.atomic
def entry_remove(*, entry: Entry, user: Any = None, reason: str = "") -> list[Table]:
    """Remove an entry registered by mistake, and its seats in the rounds drawn but not started.

    Refused (StateConflict) once the player has played (:func:`entry_has_played`): then he withdraws
    (« abandon »). Returns the tables he was taken from (left one short, or empty and removed): to redraw."""
    entry = Entry.objects.select_for_update().select_related("player", "tournament").get(pk=entry.pk)
    if entry_has_played(entry):
        raise StateConflict(_("%(name)s a déjà joué dans ce tournoi : son inscription ne peut plus être retirée, "
                              "ses donnes comptent. S'il s'en va, c'est un abandon (page « Arrivées »).")
                            % {"name": entry.player.name}, field="entry", code="entry_played")
    touched: list[Table] = []
    for seat in Seat.objects.filter(entry=entry).select_related("table__round").order_by("table__round__number"):
        table = seat.table
        position = seat.position
        seat.delete()
        for later in table.seats.filter(position__gt=position).order_by("position"):
            later.position -= 1
            later.save(update_fields=["position"])
        touched.append(table)
    for table in touched:
        if not table.seats.exists():
            table.delete()
    Entry.objects.filter(replaces=entry).update(replaces=None)
    _why(entry, user, reason or _("Inscription retirée"))
    tournament_id = entry.tournament_id
    entry.delete()
    hooks.scores_changed(tournament_id)
    return touched


def table_is_short(table: Table) -> bool:
    """Whether a table left after a removal cannot be played as it is (empty, or a count the game does not
    allow)."""
    if table.pk is None:
        return True
    return table.seats.count() not in games.player_counts(table.round.tournament.game)


def _entry_relations() -> list[tuple[type[models.Model], str]]:
    """(model, field name) of every row that points at an entry, history models aside."""
    out: list[tuple[type[models.Model], str]] = []
    for rel in Entry._meta.get_fields(include_hidden=True):
        if not (rel.is_relation and rel.auto_created and not rel.concrete):
            continue
        model = rel.related_model
        if issubclass(model, HistoricalChanges):
            continue
        if rel.many_to_many:
            through = rel.through
            if issubclass(through, HistoricalChanges):
                continue
            name = next(f.name for f in through._meta.get_fields()
                        if f.is_relation and f.concrete and f.related_model is Entry)
            out.append((through, name))
        else:
            out.append((model, rel.field.name))
    return out


def merge_conflicts(kept: Entry, duplicate: Entry) -> list[int]:
    """The rounds where both entries have a seat: a person plays a round once, so these block a merge."""
    mine = set(Seat.objects.filter(entry=kept).values_list("table__round__number", flat=True))
    theirs = set(Seat.objects.filter(entry=duplicate).values_list("table__round__number", flat=True))
    return sorted(mine & theirs)


def _licences_clash(kept: Player, duplicate: Player) -> None:
    """A player holds one licence, and one licence is never two players': two records holding two different
    licences are not merged (one licence would be lost). The refusal names both and says what to do."""
    a, b = (kept.licence or "").strip(), (duplicate.licence or "").strip()
    if kept.pk == duplicate.pk or not a or not b or a == b:
        return
    raise StateConflict(
        _("%(a)s a la licence %(la)s et %(b)s la licence %(lb)s : une personne n'a qu'une seule licence, et la "
          "fusion en perdrait une. Demandez à la fédération laquelle est la bonne, effacez l'autre de la fiche qui "
          "la porte (Modifier le joueur, champ « N° de licence », avec le motif), puis fusionnez.")
        % {"a": kept.name, "la": a, "b": duplicate.name, "lb": b}, field="other", code="merge_two_licences")


@transaction.atomic
def players_merge(*, kept: Entry, duplicate: Entry, user: Any = None, reason: str = "") -> Entry:
    """One person registered twice in a tournament: ``kept`` takes everything ``duplicate`` holds, which goes.

    Refused when both entries are the same, of different tournaments, or both seated in the same round."""
    if kept.pk == duplicate.pk:
        raise InvalidInput(_("Choisissez une autre inscription : un joueur ne se fusionne pas avec lui-même."),
                           field="other")
    if kept.tournament_id != duplicate.tournament_id:
        raise InvalidInput(_("Les deux inscriptions ne sont pas du même tournoi."), field="other")
    pair = {e.pk: e for e in Entry.objects.select_for_update().select_related("player")
            .filter(pk__in=[kept.pk, duplicate.pk])}
    kept, duplicate = pair[kept.pk], pair[duplicate.pk]
    rounds = merge_conflicts(kept, duplicate)
    if rounds:
        raise StateConflict(
            _("%(a)s et %(b)s ont chacun une place à la manche %(rounds)s : une même personne ne joue pas deux fois "
              "une manche, la fusion fausserait ces résultats. Corrigez d'abord cette manche (retirez l'une des "
              "places ou refaites le tirage).")
            % {"a": kept.player.name, "b": duplicate.player.name, "rounds": ", ".join(map(str, rounds))},
            field="other", code="merge_same_round")
    _licences_clash(kept.player, duplicate.player)
    note = _("Fusion : %(name)s%(licence)s réuni à cette fiche") % {
        "name": duplicate.player.name,
        "licence": f" (licence {duplicate.player.licence})" if duplicate.player.licence else ""}
    why = f"{note} — {reason.strip()}" if reason and reason.strip() else note
    # a person has one live personal link: the duplicate's goes when the kept one has its own
    live = {"revoked_at__isnull": True}
    if kept.private_links.filter(**live).exists():  # type: ignore[attr-defined]
        duplicate.private_links.filter(**live).update(revoked_at=timezone.now())  # type: ignore[attr-defined]
    if kept.replaces_id == duplicate.pk:
        kept.replaces = None
    try:
        with transaction.atomic():
            for model, name in _entry_relations():
                model._base_manager.filter(**{name: duplicate}).update(**{name: kept})
    except IntegrityError:
        raise StateConflict(_("Ces deux inscriptions ont des résultats qui se recouvrent (un même étui ou une "
                              "même donne) : la fusion est impossible."), field="other",
                            code="merge_overlap") from None
    key_from, key_to = str(duplicate.pk), str(kept.pk)
    for ruling in kept.tournament.rulings.all():  # type: ignore[attr-defined]
        adjustments = ruling.adjustments or {}
        if key_from in adjustments:
            moved = {(key_to if k == key_from else k): v for k, v in adjustments.items()}
            type(ruling)._base_manager.filter(pk=ruling.pk).update(adjustments=moved)
    # the kept entry: present if either was, drawn from the earlier round, in a team if either was
    kept.checked_in_at = kept.checked_in_at or duplicate.checked_in_at
    kept.from_round = min(kept.from_round, duplicate.from_round)
    kept.team_id = kept.team_id or duplicate.team_id
    kept.withdrawn = kept.withdrawn and duplicate.withdrawn
    _why(kept, user, why)
    kept.save()
    other_player = duplicate.player
    _why(duplicate, user, why)
    duplicate.delete()
    player = Player.objects.select_for_update().get(pk=kept.player_id)
    if other_player.pk != player.pk and not other_player.entries.exists():
        licence, club = other_player.licence, other_player.club
        _why(other_player, user, why)
        other_player.delete()
        if (not player.licence and licence) or (not player.club and club):
            player.licence = player.licence or licence
            player.club = player.club or club
    _why(player, user, why)
    player.save()
    kept.player = player
    hooks.scores_changed(kept.tournament_id)
    return kept
