"""More than one web node on loopback: nginx in front of several gunicorns, and a beat of
its own next to the workers (production runs exactly one beat, however many workers).

* ``Nginx``: Debian's nginx as a child process of ours (``daemon off``), with a config
  written to a folder of its own: it listens on a free loopback port and spreads the
  requests over the upstream gunicorns in turn (round robin); its access log names the
  node that answered each request (``upstream_counts``). ``scripts/ensure-nginx``
  installs the package when it is missing.
* ``celery_beat``: ``celery -A evergreen beat`` alone, without a worker.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections import Counter
from pathlib import Path

from tests.benchmarks.webstack import Child, free_port, port_answers, wait_until

NGINX_CONFIG = """\
{user}worker_processes 1;
daemon off;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    log_format upstream '$request_method $request_uri $status $upstream_addr';
    access_log {folder}/access.log upstream;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    # As the README's production config: pages and API answers compressed on the way out.
    gzip on;
    gzip_proxied any;
    gzip_types application/json image/svg+xml;
    upstream site {{
{servers}
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://site;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_next_upstream off;
        }}
    }}
}}
"""


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next(
        (path for path in ("/usr/sbin/nginx",) if os.access(path, os.X_OK)), None
    )


class Nginx:
    """nginx on a free loopback port in front of ``upstreams`` (gunicorn ports)."""

    def __init__(self, folder: Path, upstreams: list[int]) -> None:
        binary = nginx_binary()
        if binary is None:
            raise FileNotFoundError("nginx is not installed (scripts/ensure-nginx)")
        self.folder = folder
        self.port = free_port()
        folder.mkdir(parents=True, exist_ok=True)
        servers = "\n".join(f"        server 127.0.0.1:{port};" for port in upstreams)
        # As root, nginx hands its workers to "nobody", who could not write to our folder.
        user = "user root root;\n" if os.geteuid() == 0 else ""
        self.config = folder / "nginx.conf"
        self.config.write_text(
            NGINX_CONFIG.format(user=user, folder=folder, servers=servers, port=self.port)
        )
        command = [
            binary,
            "-p",
            str(folder),
            "-c",
            str(self.config),
            "-e",
            str(folder / "error.log"),
        ]
        self.child = Child("nginx", command, dict(os.environ), folder / "nginx.out")
        wait_until(lambda: port_answers(self.port) or self._exited(), "nginx to listen", 20)

    def _exited(self) -> bool:
        if not self.child.alive():
            errors = (self.folder / "error.log").read_text(errors="replace")
            raise RuntimeError(f"nginx exited:\n{self.child.log_tail()}\n{errors}")
        return False

    def upstream_counts(self) -> Counter[str]:
        """How many requests each upstream ("127.0.0.1:port") answered so far."""
        log = self.folder / "access.log"
        lines = log.read_text(errors="replace").splitlines() if log.exists() else []
        return Counter(line.rsplit(" ", 1)[-1] for line in lines if line.strip())

    def stop(self) -> None:
        self.child.stop()


def celery_beat(env: dict[str, str], log_path: Path, schedule: Path) -> Child:
    """The one beat of a deployment, apart from the workers; waits until it has started."""
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "evergreen",
        "beat",
        f"--schedule={schedule}",
        "--loglevel=info",
    ]
    child = Child("celery beat", command, env, log_path)
    child.wait_for_log("beat: Starting", timeout=60)
    return child
