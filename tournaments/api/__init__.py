"""The REST API (DRF): thin views over ``tournaments.services`` and ``tournaments.deals.selectors``."""
