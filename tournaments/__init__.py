"""The Django app: tournaments, deals, rulings, rankings, pages and API."""
