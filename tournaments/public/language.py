"""The language switcher of the public pages: Django's ``set_language``, without a CSRF token.

The public pages are rendered once and served to every reader (tournaments.public.published), so they cannot
carry a per-visitor CSRF token. What a forged post could do here is switch a visitor's pages to English or
French (the language cookie): nothing to protect. Every other form keeps Django's CSRF protection.
"""

from __future__ import annotations

from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language as django_set_language

set_language = csrf_exempt(django_set_language)
