import time
from tests.benchmarks.oneprocess import bench_process
with bench_process("probe", broker="memory://") as redis:
    from tests.benchmarks import bench_web
    data = bench_web.prepare_games(0)
    from django.conf import settings
    from django.test import Client
    from django.http import HttpResponse
    from django.shortcuts import render
    from django.urls import path, clear_url_caches
    import evergreen.bench_urls as bu
    def user_view(request):
        return HttpResponse(f"ok {request.user.pk}", content_type="text/plain")
    def base_view(request):
        return render(request, "base.html", {})
    bu.urlpatterns.insert(0, path("bench/user/", user_view))
    bu.urlpatterns.insert(0, path("bench/base/", base_view))
    clear_url_caches()
    anon, client = Client(), Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = data["session"]
    page = f"/games/{data['page_game']}/"
    def run(c, url, n=300):
        def get():
            r = c.get(url); assert r.status_code == 200, r.status_code
            c.cookies.pop(settings.CSRF_COOKIE_NAME, None)
        for _ in range(30): get()
        t=time.process_time()
        for _ in range(n): get()
        return (time.process_time()-t)*1000/n
    m = run(anon, "/bench/read/")
    for name, c, url in [("minimal", anon, "/bench/read/"), ("minimal+session cookie", client, "/bench/read/"),
                         ("user view", client, "/bench/user/"), ("base.html signed in", client, "/bench/base/"),
                         ("base.html anon", anon, "/bench/base/"), ("game page afresh", client, page)]:
        v = run(c, url); print(f"{name:28} {v:.3f} {v/m:.1f}x")
