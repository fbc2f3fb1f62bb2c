#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys

#: commands that keep no secret and serve nothing: they run without a production key
OFFLINE_COMMANDS = frozenset({"arbitrate", "compilemessages", "makemessages"})


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "levee.settings")
    if sys.argv[1:2] and sys.argv[1] in OFFLINE_COMMANDS:
        os.environ.setdefault("LEVEE_ENV", "development")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
