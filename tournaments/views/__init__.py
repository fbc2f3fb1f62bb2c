"""Server-rendered pages, split by audience: public, organizer, the arbiters' desk and deal entry."""

from .correct_play import deal_correct_play, deal_correct_play_save
from .desk import deal_detail, my_tables, table_detail
from .entry import (
    deal_approve_view,
    deal_check,
    deal_correct_view,
    deal_enter,
    deal_restore_view,
    ruling_create,
    ruling_withdraw_view,
)
from .manage import round_draw, table_forfeit, teams
from .organizer import (
    players,
    round_create,
    round_release,
    round_seat,
    round_status,
    staff,
    tournament_create,
    tournament_status,
)
from .play import deal_play, deal_play_save, deal_play_state
from .public import home, round_detail, tournament_detail

__all__ = [
    "deal_approve_view",
    "deal_check",
    "deal_correct_play",
    "deal_correct_play_save",
    "deal_correct_view",
    "deal_detail",
    "deal_enter",
    "deal_play",
    "deal_play_save",
    "deal_play_state",
    "deal_restore_view",
    "home",
    "my_tables",
    "players",
    "round_create",
    "round_detail",
    "round_draw",
    "round_release",
    "round_seat",
    "round_status",
    "ruling_create",
    "ruling_withdraw_view",
    "staff",
    "table_detail",
    "table_forfeit",
    "teams",
    "tournament_create",
    "tournament_detail",
    "tournament_status",
]
