"""The Celery application.

With ``CELERY_BROKER_URL`` unset, tasks run eagerly in the web process, so the
embedded default (SQLite, no broker) needs nothing else running.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "levee.settings")

app = Celery("levee")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["tournaments.standings", "tournaments.public", "tournaments.operations"])  # their tasks.py
