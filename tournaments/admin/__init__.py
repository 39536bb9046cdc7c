"""The organizers' tools: clubs and events in the Django admin, limited to their own clubs.

Every model admin here derives from ``OrganizerScopedAdmin`` (``scoping``): its queryset,
object permissions and foreign-key choices are limited to the clubs where the user is an
organizer (superusers see everything). Writes go through ``tournaments.services`` (which
checks the organizer again). By model area: ``clubs`` (clubs, members, join requests),
``events`` (settings, the buttons on an event's page, seeding), ``rounds``
(registrations, rounds, tables, timeout decisions) and ``export`` (standings as CSV).
"""

from django.contrib import admin

from ..models import (
    Club,
    Event,
    JoinRequest,
    Membership,
    Registration,
    Round,
    Table,
    TimeoutDecision,
)
from .clubs import ClubAdmin, JoinRequestAdmin, MembershipAdmin
from .events import EventAdmin
from .rounds import RegistrationAdmin, RoundAdmin, TableAdmin, TimeoutDecisionAdmin

admin.site.register(Club, ClubAdmin)
admin.site.register(Membership, MembershipAdmin)
admin.site.register(JoinRequest, JoinRequestAdmin)
admin.site.register(Event, EventAdmin)
admin.site.register(Registration, RegistrationAdmin)
admin.site.register(Round, RoundAdmin)
admin.site.register(Table, TableAdmin)
admin.site.register(TimeoutDecision, TimeoutDecisionAdmin)
