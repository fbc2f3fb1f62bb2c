"""« de » and « que » elided before a name on a page: ``{% blocktranslate with name=… asvar text %}…{% endblocktranslate
%}{{ text|elided:name }}`` (« appel d'Anne Un », « Ce qu'Anne Un conteste »), as :func:`with_name` does in Python."""

from __future__ import annotations

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeData, mark_safe

from tournaments.common.elision import elide

register = template.Library()


@register.filter
def elided(text: str, name: str) -> str:
    """``text`` (a translated sentence where ``name`` follows « de » or « que ») with the French elision; a page's
    text (safe, its name escaped) stays safe."""
    if isinstance(text, SafeData):
        return mark_safe(elide(str(text), str(name or ""), str(conditional_escape(name or ""))))  # only « ' » added
    return elide(str(text), str(name or ""))
