"""Writes (HackSoft style): keyword-only functions named ``<entity>_<action>``.

Reads live in :mod:`tournaments.selectors`; permissions in :mod:`tournaments.permissions`.
"""

from .accounts import staff_account_create, staff_password_reset
from .deals import deal_annul, deal_approve, deal_correct, deal_record
from .errors import (
    DealRejected,
    Forbidden,
    IdempotencyMismatch,
    InvalidInput,
    MalformedDeal,
    PreconditionFailed,
    ServiceError,
    StateConflict,
    VersionConflict,
)
from .restore import deal_restore
from .rulings import ruling_record, ruling_withdraw
from .setup import (
    CsvImport,
    entry_update,
    player_create,
    player_register,
    players_import_csv,
    role_assign,
    role_revoke,
    round_create,
    round_release,
    round_seat,
    round_set_status,
    team_create,
    tournament_create,
    tournament_set_status,
    tournament_update,
)

__all__ = [
    "CsvImport",
    "DealRejected",
    "Forbidden",
    "IdempotencyMismatch",
    "InvalidInput",
    "MalformedDeal",
    "PreconditionFailed",
    "ServiceError",
    "StateConflict",
    "VersionConflict",
    "deal_annul",
    "deal_approve",
    "deal_correct",
    "deal_record",
    "deal_restore",
    "entry_update",
    "player_create",
    "player_register",
    "players_import_csv",
    "role_assign",
    "role_revoke",
    "round_create",
    "round_release",
    "round_seat",
    "round_set_status",
    "ruling_record",
    "ruling_withdraw",
    "staff_account_create",
    "staff_password_reset",
    "team_create",
    "tournament_create",
    "tournament_set_status",
    "tournament_update",
]
