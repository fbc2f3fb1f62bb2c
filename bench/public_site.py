"""Settings of bench/public.py's server: the project's own, with the URLconf of ``public_urls.py`` (the
project's URLs plus one trivial view, the reference)."""

from __future__ import annotations

from levee.settings import *  # noqa: F403 - the project's settings, unchanged

ROOT_URLCONF = "public_urls"
