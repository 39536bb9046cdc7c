"""Organizer admin access: granted with the role, taken back with the last one."""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission

from tournaments.access import (
    ORGANIZER_GROUP,
    grant_organizer_access,
    organized_club_ids,
    revoke_organizer_access,
)
from tournaments.models import Club, Membership


def club(name: str) -> Club:
    return Club.objects.create(name=name, slug=name.lower())


class TestGrant:
    def test_an_organizer_becomes_staff_in_the_organizers_group(self, alice):
        grant_organizer_access(alice)
        alice.refresh_from_db()
        assert alice.is_staff and not alice.is_superuser
        assert alice.groups.filter(name=ORGANIZER_GROUP).exists()
        assert alice.has_perm("tournaments.change_event")
        assert alice.has_perm("tournaments.view_table")
        assert not alice.has_perm("games.change_game")
        assert not alice.has_perm("tournaments.delete_club")

    def test_granting_twice_changes_nothing(self, alice):
        grant_organizer_access(alice)
        grant_organizer_access(alice)
        assert alice.groups.count() == 1

    def test_an_edited_group_gets_its_permissions_back(self, alice):
        grant_organizer_access(alice)
        group = Group.objects.get(name=ORGANIZER_GROUP)
        group.permissions.add(Permission.objects.get(codename="change_game"))
        group.permissions.remove(Permission.objects.get(codename="change_event"))
        grant_organizer_access(alice)
        codes = set(group.permissions.values_list("codename", flat=True))
        assert "change_event" in codes and "change_game" not in codes


class TestRevoke:
    def test_it_waits_while_the_user_still_organizes_a_club(self, alice):
        Membership.objects.create(club=club("A"), user=alice, role=Membership.Role.ORGANIZER)
        grant_organizer_access(alice)
        revoke_organizer_access(alice)
        alice.refresh_from_db()
        assert alice.is_staff
        assert organized_club_ids(alice) == {Club.objects.get().pk}

    def test_the_last_role_gone_the_access_goes(self, alice):
        Membership.objects.create(club=club("A"), user=alice, role=Membership.Role.MEMBER)
        grant_organizer_access(alice)
        revoke_organizer_access(alice)
        alice.refresh_from_db()
        assert not alice.is_staff
        assert not alice.groups.exists()

    def test_staff_for_another_reason_stay_staff(self, staff, superuser):
        for user in (staff, superuser):
            user.user_permissions.add(Permission.objects.get(codename="view_game"))
            grant_organizer_access(user)
            revoke_organizer_access(user)
            user.refresh_from_db()
            assert user.is_staff
            assert not user.groups.exists()
