"""A tournament's kept download as its public pages serve it: the file, or while its first render runs the
« en préparation » page that reloads itself (:mod:`tournaments.common.downloads`)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.template.loader import render_to_string

from tournaments.common import downloads
from tournaments.public import published


def serve(request: HttpRequest, state: published.Published, doc: downloads.Download) -> HttpResponseBase:
    """``doc``'s file, or the « en préparation » page naming it (202, see :func:`downloads.serve`)."""

    def page() -> HttpResponse:
        return HttpResponse(render_to_string("public/preparing.html", {
            "tournament": state.tournament, "every": downloads.RETRY_AFTER, "title": doc.title,
            "format": doc.kind.split(".")[1].upper(), "next_url": request.get_full_path(), "messages": ()}))

    return downloads.serve(request, doc, page)
