"""Language choice: French unless the visitor chose English.

Club members share tablets and phones whose browsers may ask for English; the pages stay in
French (the default) until someone picks English with the language switcher, which sets
Django's language cookie. API clients are machines: for ``/api/`` the standard negotiation
(``Accept-Language``) applies.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.middleware.locale import LocaleMiddleware
from django.utils import translation


class FrenchFirstLocaleMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware, without Accept-Language for pages."""

    def process_request(self, request: HttpRequest) -> None:
        if request.path.startswith("/api/"):
            super().process_request(request)
            return
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        language = chosen if chosen in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
