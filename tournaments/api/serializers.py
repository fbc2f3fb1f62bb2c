"""Input and output serializers of the API (outputs are read-only shapes, inputs validate types only:
the rules of a game are checked by ``scoring.verdict.judge`` in the services)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from scoring.penalties import PRESETS
from tournaments.deals.models import Ruling
from tournaments.event.models import Entry, Game, Player, Round, Seat, Table, Team, Tournament, TournamentRole

# -- outputs ---------------------------------------------------------------------------------------


class TournamentOut(serializers.ModelSerializer):
    class Meta:
        model = Tournament
        fields = ["id", "name", "slug", "game", "options", "format", "rounds_planned", "deals_per_round", "target",
                  "status", "is_public", "tie_breaks", "released_round", "date", "start_time", "venue",
                  "round_minutes", "separate_clubs", "club", "created_at", "updated_at"]


class PlayerOut(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "club", "licence"]


class PublicPlayerOut(serializers.ModelSerializer):
    """A player as anyone may read it: no licence number (personal data, for the tournament's staff only)."""

    class Meta:
        model = Player
        fields = ["id", "name", "club"]


class EntryOut(serializers.ModelSerializer):
    player = PlayerOut()

    class Meta:
        model = Entry
        fields = ["id", "tournament", "player", "team", "withdrawn"]


class PublicEntryOut(EntryOut):
    """A registration as anyone may read it; the tournament's staff also get ``player.licence``."""

    player = PublicPlayerOut()


class TeamOut(serializers.ModelSerializer):
    entries = serializers.PrimaryKeyRelatedField(many=True, read_only=True)

    class Meta:
        model = Team
        fields = ["id", "tournament", "name", "entries"]


class SeatOut(serializers.ModelSerializer):
    name = serializers.CharField(source="entry.player.name")

    class Meta:
        model = Seat
        fields = ["position", "entry", "name"]


class TableOut(serializers.ModelSerializer):
    seats = SeatOut(many=True)
    round_number = serializers.IntegerField(source="round.number")

    class Meta:
        model = Table
        fields = ["id", "round", "round_number", "number", "seats", "match_totals", "match_winner", "match_ended"]


class RoundOut(serializers.ModelSerializer):
    tables = TableOut(many=True)

    class Meta:
        model = Round
        fields = ["id", "tournament", "number", "status", "released", "tables"]


class RulingOut(serializers.ModelSerializer):
    withdrawn = serializers.BooleanField(source="is_withdrawn", read_only=True,
                                         help_text="withdrawn: kept and listed, counting for nothing")
    withdrawn_by_name = serializers.SerializerMethodField(help_text="the username of who withdrew it")

    class Meta:
        model = Ruling
        fields = ["id", "tournament", "table", "deal", "kind", "adjustments", "is_penalty", "annuls_deal", "reason",
                  "penalty", "penalty_rule", "offender", "decision", "created_by", "created_at", "version", "withdrawn",
                  "withdrawn_at", "withdrawn_by", "withdrawn_by_name", "withdraw_reason"]

    def get_withdrawn_by_name(self, obj: Ruling) -> str | None:
        return obj.withdrawn_by.get_username() if obj.withdrawn_by_id else None


class RoleOut(serializers.ModelSerializer):
    user = serializers.CharField(source="user.username")
    tables = serializers.PrimaryKeyRelatedField(many=True, read_only=True)

    class Meta:
        model = TournamentRole
        fields = ["id", "user", "role", "tables"]


class DealScoreOut(serializers.Serializer):
    position = serializers.IntegerField()
    entry = serializers.IntegerField()
    points = serializers.IntegerField(allow_null=True)


class DealOut(serializers.Serializer):
    """A saved deal (``tournaments.deals.selectors.deal_to_json``)."""

    id = serializers.IntegerField()
    table = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["valid", "pending", "annulled", "irregular"])
    version = serializers.IntegerField()
    counts = serializers.BooleanField()
    record = serializers.JSONField(help_text="the full levee.deal/1 record")
    verdict = serializers.JSONField(help_text="the verdict JSON (docs/deal-record.md)")
    scores = DealScoreOut(many=True)
    created_by = serializers.IntegerField(allow_null=True)
    updated_by = serializers.IntegerField(allow_null=True)
    approved_by = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class DealVersionOut(serializers.Serializer):
    version = serializers.IntegerField()
    status = serializers.CharField()
    change = serializers.CharField()
    reason = serializers.CharField(allow_null=True)
    user = serializers.CharField(allow_null=True)
    date = serializers.DateTimeField()
    record = serializers.JSONField()
    verdict = serializers.JSONField()


class ViolationOut(serializers.Serializer):
    deal = serializers.IntegerField(allow_null=True)
    trick = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)
    card = serializers.CharField(allow_null=True)
    rule = serializers.CharField()
    message = serializers.CharField()
    params = serializers.DictField()


class ErrorOut(serializers.Serializer):
    """Every 4xx: a stable code, the field at fault (a JSON path) and a message."""

    error = serializers.CharField()
    field = serializers.CharField(allow_null=True)
    message = serializers.CharField()


class RejectedOut(serializers.Serializer):
    """A deal with violations: nothing was saved."""

    error = serializers.CharField(default="illegal")
    message = serializers.CharField()
    violations = ViolationOut(many=True)
    verdict = serializers.JSONField()


class VerdictOut(serializers.Serializer):
    """The verdict JSON of ``docs/deal-record.md``."""

    legal = serializers.BooleanField()
    violations = ViolationOut(many=True)
    deals = serializers.ListField(child=serializers.JSONField())
    totals = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    winner = serializers.JSONField(allow_null=True)


class CsvImportOut(serializers.Serializer):
    registered = EntryOut(many=True)
    errors = serializers.ListField(child=serializers.DictField())
    already_registered = serializers.ListField(child=serializers.CharField(), help_text=(
        "the names of the rows left aside: the person is already entered in the tournament (or earlier in the file)"))


# -- inputs ----------------------------------------------------------------------------------------


class TournamentIn(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    game = serializers.ChoiceField(choices=Game.choices)
    slug = serializers.SlugField(max_length=200, required=False)
    options = serializers.DictField(required=False, default=dict)
    format = serializers.ChoiceField(choices=Tournament.Format.choices, default=Tournament.Format.INDIVIDUAL)
    rounds_planned = serializers.IntegerField(min_value=1, max_value=100, default=1)
    deals_per_round = serializers.IntegerField(min_value=1, max_value=1000, required=False, allow_null=True)
    target = serializers.IntegerField(min_value=1, max_value=10000, required=False, allow_null=True)
    is_public = serializers.BooleanField(default=False)
    tie_breaks = serializers.ListField(child=serializers.CharField(), required=False, default=list)
    date = serializers.DateField(required=False, allow_null=True)
    start_time = serializers.TimeField(required=False, allow_null=True)
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
    round_minutes = serializers.IntegerField(min_value=5, max_value=600, required=False)
    separate_clubs = serializers.BooleanField(required=False)
    club = serializers.IntegerField(required=False, allow_null=True,
                                    help_text="The club that runs it, one the user organizes (his only one when "
                                              "omitted).")


class TournamentPatchIn(serializers.Serializer):
    name = serializers.CharField(max_length=200, required=False)
    options = serializers.DictField(required=False)
    format = serializers.ChoiceField(choices=Tournament.Format.choices, required=False)
    rounds_planned = serializers.IntegerField(min_value=1, max_value=100, required=False)
    deals_per_round = serializers.IntegerField(min_value=1, max_value=1000, required=False, allow_null=True)
    target = serializers.IntegerField(min_value=1, max_value=10000, required=False, allow_null=True)
    is_public = serializers.BooleanField(required=False)
    tie_breaks = serializers.ListField(child=serializers.CharField(), required=False)
    date = serializers.DateField(required=False, allow_null=True)
    start_time = serializers.TimeField(required=False, allow_null=True)
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
    round_minutes = serializers.IntegerField(min_value=5, max_value=600, required=False)
    separate_clubs = serializers.BooleanField(required=False)


class StatusIn(serializers.Serializer):
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    confirm_unfinished = serializers.BooleanField(
        required=False, default=False,
        help_text="Finish the tournament although rounds are not finished (else 409 rounds_unfinished).")
    confirm_pending = serializers.BooleanField(
        required=False, default=False,
        help_text="Finish the tournament although deals await the chief arbiter's visa: they do not count until "
                  "approved (else a 409 deals_pending naming them).")


class RoleIn(serializers.Serializer):
    user = serializers.CharField(max_length=150, help_text="username")
    role = serializers.ChoiceField(choices=TournamentRole.Role.choices)
    tables = serializers.ListField(child=serializers.IntegerField(), required=False, default=list)


class PlayerIn(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    club = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    licence = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")


class RegistrationIn(serializers.Serializer):
    player = serializers.IntegerField(required=False, help_text="an existing player's id")
    name = serializers.CharField(max_length=120, required=False, allow_blank=True, default="",
                                 help_text="or a new player (by his licence alone: the licence file names him)")
    club = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    licence = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    team = serializers.IntegerField(required=False, allow_null=True)

    def validate(self, attrs):
        if "player" not in attrs and not attrs.get("name", "").strip() and not attrs.get("licence", "").strip():
            raise serializers.ValidationError(
                {"player": _("give a player id, or the name or the licence of a new player")})
        return attrs


class RegistrationPatchIn(serializers.Serializer):
    team = serializers.IntegerField(required=False, allow_null=True)
    withdrawn = serializers.BooleanField(required=False)


class TeamIn(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    entries = serializers.ListField(child=serializers.IntegerField(), required=False, default=list)


class SeatingIn(serializers.Serializer):
    tables = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), allow_empty=False), allow_empty=False,
        help_text="each table's entry ids in the order of play")


class RoundIn(serializers.Serializer):
    number = serializers.IntegerField(min_value=1, required=False)
    tables = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()), required=False)


class ReleaseIn(serializers.Serializer):
    released = serializers.BooleanField(default=True)
    confirm_unfinished = serializers.BooleanField(
        default=False, help_text="publish although matches are not over, or a round of a game of deals with no "
                                 "deal entered (else a 409 matches_unfinished)")
    confirm_pending = serializers.BooleanField(
        default=False, help_text="publish although deals await the chief arbiter's visa: they do not count until "
                                 "approved (else a 409 deals_pending naming them)")
    confirm_disputes = serializers.BooleanField(
        default=False, help_text="publish although a deal is contested or a call unanswered in the round (else a "
                                 "409 deals_disputed counting them)")


class DealCorrectIn(serializers.Serializer):
    record = serializers.JSONField(help_text="the corrected deal (its own fields, or the full record)")
    reason = serializers.CharField(max_length=2000)
    version = serializers.IntegerField(required=False, help_text="the version corrected (or the If-Match header)")


class AnnulIn(serializers.Serializer):
    reason = serializers.CharField(max_length=2000)
    version = serializers.IntegerField(required=False)


class RestoreIn(serializers.Serializer):
    reason = serializers.CharField(max_length=2000, help_text="why the deal is restored (required)")
    version = serializers.IntegerField(required=False, help_text="the deal's version the request is based on, or "
                                                                 "the If-Match header (409 with current_version "
                                                                 "when stale)")


class RulingWithdrawIn(serializers.Serializer):
    reason = serializers.CharField(max_length=2000, help_text="why the ruling is withdrawn (required)")
    version = serializers.IntegerField(required=False, help_text="the ruling's version the request is based on "
                                                                 "(409 with current_version when stale)")


class RulingIn(serializers.Serializer):
    table = serializers.IntegerField()
    deal = serializers.IntegerField(required=False, allow_null=True)
    kind = serializers.ChoiceField(choices=Ruling.Kind.choices, required=False,
                                   help_text="required, except with a penalty preset (defaults to the preset's)")
    adjustments = serializers.DictField(child=serializers.IntegerField(), required=False, default=dict,
                                        help_text="entry id → points (typed); leave empty with a penalty preset")
    is_penalty = serializers.BooleanField(default=False, help_text="ignored with a penalty preset (computed)")
    annuls_deal = serializers.BooleanField(default=False)
    reason = serializers.CharField(max_length=2000, required=False, allow_blank=True,
                                   help_text="required, except with a penalty preset (then appended to the "
                                             "preset's label; its rule reference is in penalty_rule)")
    penalty = serializers.ChoiceField(
        choices=[p.code for p in PRESETS], required=False, allow_blank=True,
        help_text="a penalty preset of the tournament's game, from the rule texts (scoring.penalties): "
                  + "; ".join(f"{p.code} ({p.game}: {p.label_en}, {p.rule})" for p in PRESETS)
                  + ". None for Tarot (A-T10), Écarté, Vingt-quatre. The points are computed; a 400 names "
                    "'penalty' for a code of another game")
    offender = serializers.IntegerField(required=False, allow_null=True,
                                        help_text="with penalty: the offending entry id (the dealer for a misdeal), "
                                                  "seated at the table")


class IrregularRuleIn(serializers.Serializer):
    decision = serializers.ChoiceField(choices=["as_played", "annul", "adjustment", "let_stand", "replay", "penalty"],
                                       help_text="what the rule texts give for the game (a 400 names 'decision' "
                                                 "for another game's)")
    reason = serializers.CharField(max_length=2000, required=False, allow_blank=True,
                                   help_text="required with adjustment")
    adjustments = serializers.DictField(child=serializers.IntegerField(), required=False, default=dict,
                                        help_text="with adjustment: entry id → points")
    penalty = serializers.ChoiceField(choices=[p.code for p in PRESETS], required=False, allow_blank=True)
    offender = serializers.IntegerField(required=False, allow_null=True,
                                        help_text="with penalty: the offending entry id")


# -- duplicate Tarot ---------------------------------------------------------------------------------


class DuplicateSetupIn(serializers.Serializer):
    boards_per_round = serializers.IntegerField(help_text="étuis a round (1 to 36)")
    seed = serializers.CharField(required=False, allow_blank=True, max_length=64, default="",
                                 help_text="deals the étuis; empty: import them or key them in at the first table")
    method = serializers.CharField(required=False, default="matchpoints", help_text="matchpoints or datum")
    score = serializers.CharField(required=False, default="mean", help_text="mean or sum")
    short = serializers.CharField(required=False, default="auto", help_text="auto, bye or three")
    tie_breaks = serializers.ListField(child=serializers.CharField(), required=False, allow_null=True,
                                       default=None, help_text="best_board, tops (in order)")


class DuplicateSetupOut(serializers.Serializer):
    tournament = serializers.IntegerField()
    boards_per_round = serializers.IntegerField()
    seed = serializers.CharField()
    method = serializers.CharField()
    score = serializers.CharField()
    short = serializers.CharField()
    tie_breaks = serializers.ListField(child=serializers.CharField())
    etuis = serializers.IntegerField(help_text="étuis of the movement")
    known = serializers.IntegerField(help_text="étuis whose cards are known")


class EtuisImportIn(serializers.Serializer):
    records = serializers.ListField(child=serializers.JSONField(), help_text="levee.deal/1 records with hands")
    first = serializers.IntegerField(min_value=1, default=1, help_text="number of the first étui given")


class EtuisImportOut(serializers.Serializer):
    imported = serializers.ListField(child=serializers.IntegerField(), help_text="the étuis given their cards")


class ArtificialIn(serializers.Serializer):
    entry = serializers.IntegerField(help_text="the registration of a player of the table")
    kind = serializers.CharField(allow_blank=True, help_text="plus, even, minus, absent; empty removes it")
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)


class ArtificialOut(serializers.Serializer):
    etui = serializers.IntegerField()
    entry = serializers.IntegerField()
    kind = serializers.CharField(allow_null=True, help_text="null: removed")
    reason = serializers.CharField()


class EtuiOut(serializers.Serializer):
    number = serializers.IntegerField()
    round = serializers.IntegerField()
    players = serializers.IntegerField()


class TravellerLineOut(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    names = serializers.ListField(child=serializers.CharField(), help_text="North, East, South, West")
    marks = serializers.ListField(child=serializers.IntegerField(allow_null=True))
    percentages = serializers.ListField(child=serializers.FloatField(allow_null=True))
    fouled = serializers.BooleanField()


class TravellerOut(serializers.Serializer):
    etui = serializers.IntegerField()
    round = serializers.IntegerField()
    expected = serializers.IntegerField(help_text="tables of the movement that play it")
    lines = TravellerLineOut(many=True)


# -- clubs and their members (issue 23) ------------------------------------------------------------------

class PublicMemberOut(serializers.Serializer):
    """A member as a comité's viewer reads him: his name only."""

    id = serializers.IntegerField()
    name = serializers.CharField()


class MemberOut(serializers.Serializer):
    """A member as the club's staff read him: personal data included."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    licence = serializers.CharField()
    birth_date = serializers.DateField(allow_null=True)
    category = serializers.CharField(help_text="The série or category of the federation's licence file.")
    valid_until = serializers.DateField(allow_null=True)
    expired = serializers.BooleanField()

    @staticmethod
    def of(member: Any, today: Any) -> dict[str, Any]:
        lic = member.licence
        valid = lic.valid_until if lic is not None else None
        return {"id": member.player.pk, "name": member.player.name, "licence": member.player.licence,
                "birth_date": member.player.birth_date.isoformat() if member.player.birth_date else None,
                "category": lic.category if lic is not None else "",
                "valid_until": valid.isoformat() if valid else None, "expired": bool(valid and valid < today)}
