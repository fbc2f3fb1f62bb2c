"""Running the service for a season: backups and their restoring, the health checks, the worker's heartbeat.

A layer of its own between the audiences and the standings (``pyproject.toml``): it reads every domain package
and knows nothing of HTTP; the organizer's backup page and the health endpoint are the audiences' views.
"""
