"""The Celery app. Workers: ``celery -A evergreen worker``; one scheduler: ``celery -A evergreen beat``.

Production uses Redis (``CELERY_BROKER_URL=redis://…``). The embedded default uses
kombu's filesystem transport (a folder, no server): ``make run`` starts one worker with
an embedded beat next to the web server. Tests run tasks eagerly, and start a real
worker against the machine's Redis for the integration tests.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evergreen.settings")

app = Celery("evergreen")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

from . import taskconnections  # noqa: E402,F401  (connects its signals: the tasks' connections)
