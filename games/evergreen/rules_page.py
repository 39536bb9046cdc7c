"""The rules of Evergreen in the reader's language: a page of our own words, with the icon
summary and the Actions/Powers reference drawn from the same vocabulary as the board."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import select_template
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from . import pagewords, presenters, rules


@require_safe
def rules_page(request: HttpRequest) -> HttpResponse:
    edition = rules.load_edition(rules.DEFAULT_EDITION)
    words = pagewords.words()
    titles = edition.solo_titles
    solo = [
        {
            "low": low,
            "high": titles[i + 1][0] - 1 if i + 1 < len(titles) else None,
            "title": presenters.solo_title(name),
        }
        for i, (low, name) in enumerate(titles)
    ]
    language = (get_language() or "en").split("-")[0]
    prose = select_template(
        [f"games/evergreen/rules/{language}.html", "games/evergreen/rules/en.html"]
    )
    return render(
        request,
        "games/evergreen/rules.html",
        {
            "prose": prose.template.name,
            **presenters.legend(),
            "icons": [(key, words.icons[key]) for key in ("F1", "F2", "A")],
            "actions": [
                (letter, presenters.ACTION_TEXT[letter]) for letter in ("A", "B", "C", "D")
            ],
            "powers": [
                {
                    "key": key,
                    "name": words.powers[key],
                    "help": words.power_help[key],
                    "levels": edition.power_levels[key],
                }
                for key in rules.POWERS
            ],
            "seasons": [
                (presenters.season_name(n + 1), count)
                for n, count in enumerate(edition.season_rounds)
            ],
            "solo": solo,
        },
    )
