#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "levee.settings")
    if sys.argv[1:2] == ["arbitrate"]:  # the offline checker keeps no secret: it runs without a production key
        os.environ.setdefault("LEVEE_ENV", "development")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
