"""Short player names for narrow score sheets."""

from django import template

register = template.Library()


@register.filter
def short_name(name: str, length: int = 8) -> str:
    """The first word of a name, cut to ``length`` characters: « Anne Moreau » → « Anne »."""
    first = (name or "").split()[0] if (name or "").split() else ""
    return first if len(first) <= length else first[: length - 1] + "."
