"""URLs for the web benchmark only: the site plus two minimal views to compare against.

Served when ROOT_URLCONF=evergreen.bench_urls (tests/benchmarks/bench_web.py sets it);
never part of the normal site.
"""

from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST


@require_GET
def minimal_read(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


@csrf_exempt
@require_POST
def minimal_write(request: HttpRequest) -> HttpResponse:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("INSERT INTO bench_row (note) VALUES (%s)", ["x"])
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("bench/read/", minimal_read),
    path("bench/write/", minimal_write),
    path("", include("evergreen.urls")),
]
