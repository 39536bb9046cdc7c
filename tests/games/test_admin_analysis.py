"""The admin of analyses, hints and rematches: listed for staff with the permissions,
read-only, a failed analysis run again through the services, and closed to the rest. The
hints each seat took are shown with the seats (the game's page and the seats' list)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games.analysis.hints import record_hint
from games.analysis.models import Analysis
from games.rematches import services as rematches
from games.rematches.models import Rematch
from tests.games.analysishelpers import finished_duel
from tests.games.gamehelpers import client_for, committed

pytestmark = pytest.mark.django_db


def url(name: str, *args: Any) -> str:
    return reverse(f"admin:{name}", args=args)


def analysis(game: Any, user: Any, status: str, **fields: Any) -> Analysis:
    seat = game.seats.get(user=user).position
    total = game.moves.filter(seat=seat).count()
    return Analysis.objects.create(
        game=game, user=user, seat=seat, budget="easy", status=status, total=total, **fields
    )


@pytest.fixture
def duel(alice: Any, bob: Any) -> Any:
    return finished_duel(alice, bob)


class TestAnalyses:
    def test_the_list_shows_game_player_status_and_progress_and_filters_by_status(
        self, superuser: Any, duel: Any, alice: Any, bob: Any
    ) -> None:
        analysis(duel, alice, Analysis.Status.RUNNING, done=3)
        analysis(duel, bob, Analysis.Status.FAILED, error="RuntimeError: the search broke")
        client = client_for(superuser)
        page = client.get(url("analysis_analysis_changelist")).content.decode()
        assert "Alice" in page and "Bob" in page and "3 / 28" in page
        failed = client.get(url("analysis_analysis_changelist"), {"status__exact": "failed"})
        assert "Bob" in failed.content.decode() and "Alice" not in failed.content.decode()
        by_player = client.get(url("analysis_analysis_changelist"), {"q": "Alice"})
        assert "3 / 28" in by_player.content.decode()

    def test_an_analysis_page_shows_its_error_and_results_read_only(
        self, superuser: Any, duel: Any, bob: Any
    ) -> None:
        failed = analysis(duel, bob, Analysis.Status.FAILED, error="RuntimeError: the search broke")
        client = client_for(superuser)
        page = client.get(url("analysis_analysis_change", failed.pk)).content.decode()
        assert "RuntimeError: the search broke" in page
        assert 'name="status"' not in page  # shown, not a field to edit
        client.post(url("analysis_analysis_change", failed.pk), {"status": "done"})
        failed.refresh_from_db()
        assert failed.status == Analysis.Status.FAILED
        assert client.get(url("analysis_analysis_add")).status_code == 403
        assert client.get(url("analysis_analysis_delete", failed.pk)).status_code == 403

    def test_run_again_queues_a_failed_analysis_and_leaves_the_others(
        self, superuser: Any, duel: Any, alice: Any, bob: Any
    ) -> None:
        done = analysis(duel, alice, Analysis.Status.DONE, finished_at=duel.finished_at)
        failed = analysis(duel, bob, Analysis.Status.FAILED, error="RuntimeError: boom")
        with committed():  # the task runs after the commit, as a worker would
            response = client_for(superuser).post(
                url("analysis_analysis_changelist"),
                {"action": "run_again", "_selected_action": [done.pk, failed.pk]},
                follow=True,
            )
        shown = response.content.decode()
        assert "1 analysis queued again." in shown
        assert "1 analysis had not failed: left as it was." in shown
        failed.refresh_from_db()
        assert (failed.status, failed.error, failed.done) == (Analysis.Status.DONE, "", 28)
        done.refresh_from_db()
        assert done.status == Analysis.Status.DONE and done.done == 0

    def test_staff_without_the_permissions_and_players_get_no_page(
        self, staff: Any, alice: Any, duel: Any
    ) -> None:
        row = analysis(duel, alice, Analysis.Status.DONE)
        for user in (staff, alice):
            client = client_for(user)
            assert client.get(url("analysis_analysis_changelist")).status_code in (302, 403)
            assert client.get(url("analysis_analysis_change", row.pk)).status_code in (302, 403)


class TestHintsAndRematches:
    def test_the_hints_a_seat_took_show_on_the_game_and_in_the_seats_list_read_only(
        self, superuser: Any, duel: Any
    ) -> None:
        for _hint in range(4):
            record_hint(duel, 1)
        client = client_for(superuser)
        game_page = client.get(url("games_game_change", duel.pk)).content.decode()
        assert "Hints used" in game_page
        assert 'name="seats-1-hints_used"' not in game_page  # shown, not a form field
        seat = duel.seats.get(position=1)
        seats = client.get(url("games_seat_changelist") + f"?q={duel.pk}")
        hints_cells = seats.content.decode().split('class="field-hints_used">')[1:]
        assert sorted(cell.split("<", 1)[0] for cell in hints_cells) == ["0", "4"]
        assert client.get(url("games_seat_change", seat.pk)).status_code == 200
        assert client.get(url("games_seat_add")).status_code == 403

    def test_a_rematch_shows_who_accepted_and_the_new_game(
        self, superuser: Any, duel: Any, alice: Any, bob: Any
    ) -> None:
        rematches.accept(duel.pk, alice)
        client = client_for(superuser)
        rematch = Rematch.objects.get(game=duel)
        waiting = client.get(url("rematches_rematch_change", rematch.pk)).content.decode()
        assert "Alice" in waiting and "Bob" not in waiting.split("accepted by")[-1][:200]
        waiting_list = url("rematches_rematch_changelist") + "?new_game__isempty=1"
        assert "1 rematch" in client.get(waiting_list).content.decode()
        rematches.accept(duel.pk, bob)
        rematch.refresh_from_db()
        assert "0 rematches" in client.get(waiting_list).content.decode()
        page = client.get(url("rematches_rematch_changelist")).content.decode()
        assert "Alice, Bob" in page or "Bob, Alice" in page
        assert str(rematch.new_game) in page
        assert client.get(url("rematches_rematch_add")).status_code == 403
        assert client.get(url("rematches_rematch_delete", rematch.pk)).status_code == 403
