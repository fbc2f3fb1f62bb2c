"""The players' register: one player across events, keyed by his licence when he has one (issue 23).

* **The federation's licence file** (:func:`licences_import`): a CSV as a French federation exports it (licence,
  nom, prénom, club, date de naissance, catégorie/série, validité), read like a player file
  (:func:`tournaments.event.setup.csv_decode`: UTF-8 with or without BOM, UTF-16, Windows-1252; ``;`` ``,`` or
  tab; French headers). Each line updates the register (:class:`~tournaments.clubs.models.Licence`) and the
  player who holds the licence (name, club, birth date, with his history). The report says what changed:
  licences added, renamed, whose club changed, expired; a licence written twice in the file is refused (every
  line of it: which one is right is the federation's to say); an unreadable line is refused with its number.
  The rest of the file is imported.
* **At registration and check-in** (:func:`licence_check`, :func:`entry_flags`): a licence is looked up in the
  register; an expired one is flagged; a licence held by another player is refused (two players on one
  licence); a likely duplicate (same name, same birth date) is offered for merging (:func:`likely_duplicates`,
  :func:`players_records_merge`, which keeps every result, with the history of each move; two records holding two
  different licences are not merged: one would be lost).
* **Personal data** (birth date, licence and its validity) are the staff's (``permissions.can_see_licences``);
  the public sees names and clubs. A player made anonymous on request (:func:`player_anonymize`) keeps his
  results under « Joueur anonyme n° … »: his name, club, licence and birth date are wiped from his record and its
  history, and the register's line of his licence goes.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from simple_history.utils import bulk_update_with_history

from tournaments.clubs.models import Club, Licence
from tournaments.common import hooks
from tournaments.common.elision import with_name
from tournaments.common.errors import InvalidInput
from tournaments.event import players as register_players
from tournaments.event.identity import name_key, namesakes
from tournaments.event.models import Entry, Player
from tournaments.event.setup import CsvUnreadable, _read_csv, csv_columns, csv_decode

#: the headers of a federation's licence file, folded by ``setup._header_key`` (accents, case, « N° »)
LICENCE_HEADERS = {
    "licence": ("licence", "license", "n licence", "no licence", "numero licence", "numero de licence",
                "n de licence", "num licence", "licence fft", "licence ffjt", "n licencie", "numero licencie"),
    "last_name": ("nom", "nom de famille", "nom d usage", "last name", "name"),
    "first_name": ("prenom", "prenoms", "first name"),
    "club": ("club", "nom du club", "club name"),
    "club_number": ("n club", "no club", "numero club", "numero du club", "code club", "club n", "n du club"),
    "birth_date": ("date de naissance", "naissance", "ne le", "ne e le", "date naissance", "birth date"),
    "category": ("categorie", "serie", "categorie serie", "cat", "classement", "serie categorie"),
    "sex": ("sexe", "sex", "genre", "civilite", "civ", "h f", "m f"),
    "valid_until": ("validite", "valide jusqu au", "fin de validite", "date de validite", "validite licence",
                    "saison", "expiration", "date d expiration"),
}

NAME_MAX, CLUB_MAX, CATEGORY_MAX, LICENCE_MAX = 120, 120, 40, 40


def full_name(first_name: str, last_name: str) -> str:
    """« Prénom Nom », each as the file spells it (a federation writes the family name in capitals)."""
    return " ".join(part for part in (first_name.strip(), last_name.strip()) if part)


_DATE = re.compile(r"^(\d{1,2})[/.\-](\d{1,2})[/.\-](\d{2}|\d{4})$")
_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T].*)?$")
_SEASON = re.compile(r"^(\d{4})\s*[/\-]\s*(\d{4})$")


def read_date(text: str, *, season_end: bool = False) -> dt.date | None:
    """A date as French files write it: 31/08/2027, 31-08-2027, 31.08.27, 2027-08-31; for a validity, a season
    « 2026-2027 » or « 2026/2027 » too (valid until 31 August of its second year). Empty: None. ValueError
    when it cannot be read."""
    text = (text or "").strip()
    if not text:
        return None
    if m := _ISO.match(text):
        return dt.date(int(m[1]), int(m[2]), int(m[3]))
    if m := _DATE.match(text):
        year = int(m[3])
        if len(m[3]) == 2:
            year += 2000 if year < 50 else 1900
        return dt.date(year, int(m[2]), int(m[1]))
    if season_end and (m := _SEASON.match(text)) and int(m[2]) == int(m[1]) + 1:
        return dt.date(int(m[2]), 8, 31)
    raise ValueError(text)


#: the « sexe » (M/F, H/F) or « civilité » (M., Mme, Mlle) of a federation's file, folded (accents, case, dots)
SEX_WORDS = {
    "f": "F", "femme": "F", "feminin": "F", "feminine": "F", "mme": "F", "madame": "F", "mlle": "F",
    "mademoiselle": "F", "d": "F", "dame": "F",
    "m": "M", "h": "M", "homme": "M", "masculin": "M", "mr": "M", "monsieur": "M",
}


def read_sex(text: str) -> str:
    """« F », « M » or « » (empty) from a « sexe » or « civilité » cell; ValueError when it cannot be read."""
    key = name_key(text).replace(" ", "")
    if not key:
        return ""
    if key in SEX_WORDS:
        return SEX_WORDS[key]
    raise ValueError(text)


def licence_valid(number: str) -> bool:
    return bool(number) and len(number) <= LICENCE_MAX and number.replace("-", "").replace(" ", "").isalnum()


# -- the federation's licence file -------------------------------------------------------------------

@dataclass
class LicenceImport:
    """What an import of the licence file changed, line by line (lines numbered as in the file, the header 1)."""

    lines: int = 0
    added: list[dict[str, Any]] = field(default_factory=list)
    renamed: list[dict[str, Any]] = field(default_factory=list)
    club_changed: list[dict[str, Any]] = field(default_factory=list)
    #: the « sexe » given or changed (the file has the column): personal data, the report is the staff's
    sex_changed: list[dict[str, Any]] = field(default_factory=list)
    sex_read: bool = False
    expired: list[dict[str, Any]] = field(default_factory=list)
    duplicates: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    unchanged: int = 0
    players_updated: int = 0

    @property
    def imported(self) -> int:
        """Lines taken into the register (added, changed or the same)."""
        refused = sum(len(d["lines"]) for d in self.duplicates) + len(self.errors)
        return self.lines - refused

    def summary(self) -> str:
        """The report in one French sentence (« nombre : n », never a wrong plural)."""
        return _("Lines read: %(lines)s — licences added: %(added)s; renamed: %(renamed)s; club changes: "
                 "%(club)s; expired: %(expired)s; duplicates, refused: %(dup)s; unreadable lines: %(errors)s; "
                 "players updated: %(players)s.") % {
            "lines": self.lines, "added": len(self.added), "renamed": len(self.renamed),
            "club": len(self.club_changed), "expired": len(self.expired), "dup": len(self.duplicates),
            "errors": len(self.errors), "players": self.players_updated} + (
            " " + _("Sexe renseigné ou changé : %(n)s.") % {"n": len(self.sex_changed)} if self.sex_read else "")


@dataclass
class _Line:
    n: int
    number: str
    last_name: str
    first_name: str
    club_name: str
    club_number: str
    birth_date: dt.date | None
    category: str
    valid_until: dt.date | None
    sex: str = ""

    @property
    def name(self) -> str:
        return full_name(self.first_name, self.last_name)


def _read_lines(rows: list[list[str]], columns: dict[str, int], result: LicenceImport) -> list[_Line]:
    lines: list[_Line] = []
    for n, row in enumerate(rows, start=2):
        if not any(cell.strip() for cell in row):
            continue
        result.lines += 1

        def cell(key: str, row: list[str] = row) -> str:
            i = columns.get(key)
            return " ".join(row[i].split()) if i is not None and i < len(row) else ""

        def refuse(field_name: str, message: str, n: int = n) -> None:
            result.errors.append({"line": n, "field": field_name, "message": message})

        number = cell("licence")
        if not licence_valid(number):
            refuse("licence", _("« %(licence)s » is not a licence number.") % {"licence": number}
                   if number else _("The licence number is empty."))
            continue
        last, first, club = cell("last_name"), cell("first_name"), cell("club")
        if not last:
            refuse("nom", _("Le nom est vide."))
            continue
        if len(full_name(first, last)) > NAME_MAX or len(club) > CLUB_MAX:
            refuse("nom" if len(club) <= CLUB_MAX else "club", _("At most %(n)s characters.") % {"n": NAME_MAX})
            continue
        try:
            birth = read_date(cell("birth_date"))
        except ValueError:
            refuse("date de naissance", _("« %(date)s » is not a date (dd/mm/yyyy).")
                   % {"date": cell("birth_date")})
            continue
        try:
            valid = read_date(cell("valid_until"), season_end=True)
        except ValueError:
            refuse("validité", _("« %(date)s » is not a validity date (dd/mm/yyyy or season 2026-2027).")
                   % {"date": cell("valid_until")})
            continue
        try:
            sex = read_sex(cell("sex"))
        except ValueError:
            refuse("sexe", _("« %(sex)s » n'est ni un sexe ni une civilité (F ou M, Mme ou M.).")
                   % {"sex": cell("sex")})
            continue
        lines.append(_Line(n, number, last, first, club, cell("club_number"), birth,
                           cell("category")[:CATEGORY_MAX], valid, sex))
    return lines


def _clubs_by(lines: list[_Line]) -> tuple[dict[str, Club], dict[str, Club]]:
    """The clubs of the file found among Levée's clubs: by federation number, and by name."""
    numbers = {line.club_number for line in lines if line.club_number}
    by_number = {c.federation_number: c for c in Club.objects.filter(federation_number__in=numbers)} if numbers \
        else {}
    by_name = {name_key(c.name): c for c in Club.objects.all()}
    return by_number, by_name


@transaction.atomic
def licences_import(*, text: str | bytes, today: dt.date | None = None, user: Any = None,
                    dry_run: bool = False) -> LicenceImport:
    """Import the federation's licence file into the register; the report of what changed (see the module).

    ``today``: the day a licence is expired after (its validity before today); ``dry_run``: the report only."""
    today = today or timezone.localdate()
    result = LicenceImport()
    try:
        text = csv_decode(text)
    except CsvUnreadable as exc:
        result.errors.append({"line": exc.line, "field": "fichier", "message": exc.message})
        return result
    header, rows = _read_csv(text)
    columns, result.ignored = csv_columns(header, [], LICENCE_HEADERS)
    missing = [name for key, name in (("licence", "licence"), ("last_name", "nom")) if key not in columns]
    if missing:
        result.errors.append({"line": 1, "field": missing[0], "message": _(
            "The first line must name the columns « licence » and « nom » (« %(column)s » is missing).")
            % {"column": missing[0]}})
        return result
    lines = _read_lines(rows, columns, result)
    result.sex_read = "sex" in columns
    by_number: dict[str, list[_Line]] = defaultdict(list)
    for line in lines:
        by_number[line.number].append(line)
    kept: list[_Line] = []
    for number, same in by_number.items():
        if len(same) > 1:
            result.duplicates.append({"licence": number, "lines": [line.n for line in same],
                                      "names": [line.name for line in same]})
        else:
            kept.append(same[0])
    known = {lic.number: lic for lic in Licence.objects.filter(number__in=[line.number for line in kept])}
    holders = {p.licence: p for p in Player.objects.filter(licence__in=[line.number for line in kept])}
    clubs_by_number, clubs_by_name = _clubs_by(kept)
    new: list[Licence] = []
    changed: list[Licence] = []
    for line in kept:
        club = clubs_by_number.get(line.club_number) or clubs_by_name.get(name_key(line.club_name))
        old = known.get(line.number)
        holder = holders.get(line.number)
        what = {"line": line.n, "licence": line.number, "name": line.name}
        before_name = (old and full_name(old.first_name, old.last_name)) or (holder.name if holder else "")
        before_club = old.club_name if old else (holder.club if holder else "")
        if old is None:
            result.added.append(what)  # new in the register (a player may already have given it)
        if before_name and name_key(before_name) != name_key(line.name):
            result.renamed.append({**what, "before": before_name})
        if (old is not None or holder is not None) and name_key(before_club) != name_key(line.club_name):
            result.club_changed.append({**what, "before": before_club, "club": line.club_name})
        if line.valid_until is not None and line.valid_until < today:
            result.expired.append({**what, "valid_until": line.valid_until})
        values = {"last_name": line.last_name, "first_name": line.first_name, "club_name": line.club_name,
                  "club_id": club.pk if club else None, "birth_date": line.birth_date, "category": line.category,
                  "valid_until": line.valid_until}  # the club by its id: reading ``old.club`` would query it
        if result.sex_read:  # a file without the column leaves the sex known as it was
            values["sex"] = line.sex
            before_sex = old.sex if old is not None else ""
            if line.sex != before_sex and (line.sex or old is not None):
                result.sex_changed.append({**what, "before": before_sex, "sex": line.sex})
        if old is None:
            new.append(Licence(number=line.number, **values))
        elif any(getattr(old, k) != v for k, v in values.items()):
            for k, v in values.items():
                setattr(old, k, v)
            changed.append(old)
        else:
            result.unchanged += 1
    updated = _players_from(kept, holders, clubs_by_number, clubs_by_name)
    result.players_updated = len(updated)
    if dry_run:
        transaction.set_rollback(True)
        return result
    # the lines that changed are written again under their own ids (nothing points at a licence's row): a few
    # INSERTs instead of an UPDATE per field and batch (Django's bulk_update, ten times slower here)
    Licence.objects.filter(pk__in=[lic.pk for lic in changed]).delete()
    Licence.objects.bulk_create([*changed, *new], batch_size=500)
    if updated:
        bulk_update_with_history(
            updated, Player, ["name", "club", "home_club", "birth_date"], batch_size=500,
            default_user=user if user is not None and getattr(user, "is_authenticated", False) else None,
            default_change_reason=_("Fichier des licences du %(date)s") % {"date": today.strftime("%d/%m/%Y")})
        for tournament_id in set(Entry.objects.filter(player__in=updated).values_list("tournament_id", flat=True)):
            hooks.scores_changed(tournament_id)  # the names and clubs of the rankings
    return result


def _players_from(lines: list[_Line], holders: dict[str, Player], clubs_by_number: dict[str, Club],
                  clubs_by_name: dict[str, Club]) -> list[Player]:
    """The players holding a licence of the file whose name, club or birth date the file changes."""
    updated = []
    for line in lines:
        player = holders.get(line.number)
        if player is None:
            continue
        club = clubs_by_number.get(line.club_number) or clubs_by_name.get(name_key(line.club_name))
        # the same name in other capitals or accents is the club's spelling of it, kept (not « ŒILLET »)
        name = player.name if name_key(player.name) == name_key(line.name) else line.name
        values = {"name": name, "club": line.club_name,
                  "home_club_id": club.pk if club else player.home_club_id,
                  "birth_date": line.birth_date or player.birth_date}
        if any(getattr(player, k) != v for k, v in values.items()):
            for k, v in values.items():
                setattr(player, k, v)
            updated.append(player)
    return updated


# -- at registration and check-in --------------------------------------------------------------------

@dataclass(frozen=True)
class LicenceCheck:
    """What the register says of a licence: ``state`` one of ``none`` (no licence given), ``unknown`` (not in the
    federation's file), ``valid``, ``expired``; ``record`` the register's line."""

    number: str
    state: str
    record: Licence | None = None

    @property
    def message(self) -> str:
        if self.state == "expired" and self.record is not None and self.record.valid_until is not None:
            return _("Licence %(licence)s expired on %(date)s.") % {
                "licence": self.number, "date": self.record.valid_until.strftime("%d/%m/%Y")}
        if self.state == "unknown":
            return _("Licence %(licence)s is not in the licence file.") % {"licence": self.number}
        return ""


def register_loaded() -> bool:
    """Whether a licence file was ever imported (before that, an unknown licence is no news)."""
    return Licence.objects.exists()


def licence_check(number: str, *, today: dt.date | None = None) -> LicenceCheck:
    number = (number or "").strip()
    if not number:
        return LicenceCheck(number, "none")
    record = Licence.objects.filter(number=number).first()
    if record is None:
        return LicenceCheck(number, "unknown" if register_loaded() else "none")
    today = today or timezone.localdate()
    if record.valid_until is not None and record.valid_until < today:
        return LicenceCheck(number, "expired", record)
    return LicenceCheck(number, "valid", record)


def licence_holder_refusal(number: str, name: str, *, player: Player | None = None) -> None:
    """Two players on one licence are refused: the licence held by another player of another name."""
    number = (number or "").strip()
    if not number:
        return
    other = Player.objects.filter(licence=number).exclude(pk=player.pk if player else None).first()
    if other is not None and name_key(other.name) != name_key(name):
        raise InvalidInput(with_name(_("Licence %(licence)s is %(name)s's: two players do not share a licence. If "
                                       "this is the same person, register them under that name."), other.name,
                                     licence=number), field="licence")


def likely_duplicates(player: Player) -> list[Player]:
    """Other records likely to be the same person (``identity.namesakes``: the same name, and the same birth date
    or nothing that says otherwise), to be offered for merging."""
    return namesakes([player]).get(player.pk, [])


def entry_flags(entries: Iterable[Entry], *, today: dt.date | None = None,
                tournament_id: int | None = None) -> dict[int, list[dict[str, Any]]]:
    """What the register says of each entry at registration and check-in, in a few queries: ``expired``,
    ``unknown`` licences, ``duplicate`` (with the other players) — for the staff's lists. ``tournament_id``: the
    entries are that tournament's (its whole list: its players' names read by the database, not sent to it)."""
    entries = list(entries)
    today = today or timezone.localdate()
    numbers = {e.player.licence for e in entries if e.player.licence}
    records = {lic.number: lic for lic in Licence.objects.filter(number__in=numbers)}
    loaded = bool(records) or register_loaded()
    likely = namesakes((e.player for e in entries), among=None if tournament_id is None else
                       Player.objects.filter(entries__tournament_id=tournament_id))
    flags: dict[int, list[dict[str, Any]]] = {}
    for e in entries:
        out: list[dict[str, Any]] = []
        licence = e.player.licence
        record = records.get(licence)
        if licence and record is None and loaded:
            out.append({"kind": "unknown", "message": LicenceCheck(licence, "unknown").message})
        elif record is not None and record.valid_until is not None and record.valid_until < today:
            out.append({"kind": "expired", "message": LicenceCheck(licence, "expired", record).message})
        others = likely.get(e.player_id, [])
        if others:
            out.append({"kind": "duplicate", "players": others,
                        "message": _("Doublon probable : même nom que %(who)s. S'il s'agit de la même personne, "
                                     "réunissez les deux fiches depuis la sienne.")
                        % {"who": ", ".join(f"{p.name} ({p.club or _('no club')})" for p in others)}})
        if out:
            flags[e.pk] = out
    return flags


# -- merging two records of one person, across events -------------------------------------------------

@transaction.atomic
def players_records_merge(*, kept: Player, duplicate: Player, user: Any = None, reason: str = "") -> Player:
    """One person with two records: ``kept`` takes every entry of ``duplicate`` (each tournament's results with
    them, every move in the entries' history); where both played one tournament, the two entries are merged
    (:func:`tournaments.event.players.players_merge`, refused when both sat in one round). ``duplicate`` goes;
    ``kept`` takes his licence, club and birth date where his own are empty. Two records holding two different
    licences are refused (a player holds one licence; the refusal names both and says what to do)."""
    if kept.pk == duplicate.pk:
        raise InvalidInput(_("Choose another record: a player is not merged with himself."),
                           field="other")
    pair = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[kept.pk, duplicate.pk])}
    kept, duplicate = pair[kept.pk], pair[duplicate.pk]
    register_players._licences_clash(kept, duplicate)  # two licences: refused, nothing lost
    note = _("Fusion : %(name)s%(licence)s réuni à cette fiche") % {
        "name": duplicate.name, "licence": f" (licence {duplicate.licence})" if duplicate.licence else ""}
    why = f"{note} — {reason.strip()}" if reason and reason.strip() else note
    mine = {e.tournament_id: e for e in kept.entries.all()}
    touched = set()
    for entry in list(duplicate.entries.select_related("player")):
        touched.add(entry.tournament_id)
        if entry.tournament_id in mine:
            register_players.players_merge(kept=mine[entry.tournament_id], duplicate=entry, user=user,
                                           reason=reason)
        else:
            entry.player = kept
            register_players._why(entry, user, why)
            entry.save()
    licence, club, home, birth = duplicate.licence, duplicate.club, duplicate.home_club_id, duplicate.birth_date
    if Player.objects.filter(pk=duplicate.pk).exists():
        register_players._why(duplicate, user, why)
        duplicate.delete()
    kept.licence = kept.licence or licence
    kept.club = kept.club or club
    kept.home_club_id = kept.home_club_id or home
    kept.birth_date = kept.birth_date or birth
    register_players._why(kept, user, why)
    kept.save()
    for tournament_id in touched:
        hooks.scores_changed(tournament_id)
    return kept


# -- anonymous on request (GDPR) ------------------------------------------------------------------------

def anonymous_name(player: Player) -> str:
    return _("Joueur anonyme n° %(n)s") % {"n": player.pk}


@transaction.atomic
def player_anonymize(*, player: Player, user: Any = None, reason: str = "") -> Player:
    """Make a player anonymous on request, his results kept: his name becomes « Joueur anonyme n° … »; his club,
    licence and birth date go, from his record and from every line of its history; the register's line of his
    licence goes too. The rankings are published again under the new name. Done once (again: nothing more)."""
    locked = Player.objects.select_for_update().get(pk=player.pk)
    if locked.anonymized_at is not None:
        return locked
    licence, old_name = locked.licence, locked.name
    wiped = {"name": anonymous_name(locked), "club": "", "licence": "", "birth_date": None, "home_club": None}
    for k, v in wiped.items():
        setattr(locked, k, v)
    locked.anonymized_at = timezone.now()
    register_players._why(locked, user, _("Rendu anonyme à sa demande") + (f" — {reason.strip()}" if reason else ""))
    locked.save()
    locked.history.all().update(**wiped)  # type: ignore[attr-defined]
    if licence:
        Licence.objects.filter(number=licence).delete()
    hooks.player_anonymized(locked.pk, old_name, locked.name)  # the deals' records keep names: they change them
    for tournament_id in set(locked.entries.values_list("tournament_id", flat=True)):
        hooks.scores_changed(tournament_id)
    return locked
