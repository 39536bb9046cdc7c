import time, gc
from tests.benchmarks.oneprocess import bench_process
with bench_process("probe", broker="memory://") as redis:
    from tests.benchmarks import bench_web
    data = bench_web.prepare_games(0)
    from django.conf import settings
    from django.test import Client
    anon, client = Client(), Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = data["session"]
    page = f"/games/{data['page_game']}/"
    def run(c, url, n=400):
        def get():
            r = c.get(url); assert r.status_code == 200, r.status_code
            c.cookies.pop(settings.CSRF_COOKIE_NAME, None)
        for _ in range(30): get()
        t=time.process_time()
        for _ in range(n): get()
        return (time.process_time()-t)*1000/n
    print("objects tracked", len(gc.get_objects()), gc.get_threshold(), gc.get_count())
    calls = {"n":0,"t":0.0}
    def cb(phase, info):
        if phase=="start": calls["s"]=time.perf_counter(); calls["gen"]=info["generation"]
        else:
            calls["n"]+=1; calls["t"]+=time.perf_counter()-calls["s"]; calls.setdefault(calls["gen"],0); calls[calls["gen"]]+=1
    gc.callbacks.append(cb)
    for label in ["gc on", "gc on again"]:
        calls.update(n=0,t=0.0)
        m=run(anon,"/bench/read/"); a=run(client,page)
        print(label, f"minimal {m:.3f} afresh {a:.3f} ratio {a/m:.2f}", "gc runs", calls)
    gc.freeze()
    for label in ["frozen"]:
        calls.update(n=0,t=0.0)
        m=run(anon,"/bench/read/"); a=run(client,page)
        print(label, f"minimal {m:.3f} afresh {a:.3f} ratio {a/m:.2f}", "gc runs", calls)
    gc.disable()
    m=run(anon,"/bench/read/"); a=run(client,page)
    print("gc off", f"minimal {m:.3f} afresh {a:.3f} ratio {a/m:.2f}")
