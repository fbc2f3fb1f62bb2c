"""Django finds the app's models here: each package of ``tournaments`` keeps its own ``models`` module."""

from tournaments.clubs import models as clubs_models
from tournaments.deals import models as deals_models
from tournaments.duplicate import models as duplicate_models
from tournaments.event import models as event_models
from tournaments.links import models as links_models
from tournaments.seasons import models as seasons_models
from tournaments.standings import models as standings_models

__all__ = ["clubs_models", "deals_models", "duplicate_models", "event_models", "links_models", "seasons_models",
           "standings_models"]
