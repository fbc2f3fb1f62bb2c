"""The tests' settings: Levée's, in development mode (``LEVEE_ENV=development``: the development key, DEBUG as
pytest-django sets it). Processes the tests start (``manage.py``, a Celery worker) inherit the mode."""

import os

os.environ.setdefault("LEVEE_ENV", "development")

from levee.settings import *  # noqa: F403
