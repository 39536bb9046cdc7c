"""The rules of Verdant in the reader's language: a page of our own words (there is no
Verdant rulebook in German, French or Russian; the words are docs/glossary.md's)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import select_template
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from . import rules, words


@require_safe
def rules_page(request: HttpRequest) -> HttpResponse:
    edition = rules.load_edition()
    titles = edition.solo_titles
    solo = [
        {
            "low": low,
            "high": titles[i + 1][0] - 1 if i + 1 < len(titles) else None,
            "title": words.title(name),
        }
        for i, (low, name) in enumerate(titles)
    ]
    language = (get_language() or "en").split("-")[0]
    prose = select_template([f"games/verdant/rules/{language}.html", "games/verdant/rules/en.html"])
    return render(
        request,
        "games/verdant/rules.html",
        {
            "prose": prose.template.name,
            "verdant_types": list(words.TYPES.items()),
            "items": [
                (words.item(kind), str(words.TYPES[item.color]))
                for kind, item in edition.items.items()
            ],
            "nurture": [words.item(kind) for kind in edition.nurture],
            "pots": [(words.pot(kind), value) for kind, value in edition.pot_values.items()],
            "item_score": list(enumerate(edition.item_score)),
            "solo": solo,
        },
    )
