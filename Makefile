# Two commands on a fresh machine with Python 3.11: `make run` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install lock run demo test lint bench load simulate clean

# The exact versions (with their hashes) of requirements/dev.txt, the lock that CI and
# every developer install; then this project itself, without touching them. `pip check`
# fails when pyproject.toml asks for a package the lock lacks: run `make lock`.
$(STAMP): pyproject.toml requirements/dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -r requirements/dev.txt
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	$(PY) -m pip check
	touch $(STAMP)

install: $(STAMP)

# Writes the locks again from pyproject.toml's ranges: requirements/production.txt (what a
# deploy installs) and requirements/dev.txt (the same pins plus the dev extra). Versions
# already locked stay unless pyproject needs others: `make lock ARGS=--upgrade` takes the
# newest of everything, `ARGS="--upgrade-package ruff"` of one package.
LOCK := CUSTOM_COMPILE_COMMAND="make lock" $(VENV)/bin/pip-compile --quiet --strip-extras \
	--allow-unsafe --generate-hashes --no-emit-index-url --no-emit-find-links $(ARGS)
lock: install
	$(LOCK) -o requirements/production.txt pyproject.toml
	$(LOCK) --extra dev -c requirements/production.txt -o requirements/dev.txt pyproject.toml

# The site on http://127.0.0.1:8000 with demo users and games, and a Celery worker with an
# embedded beat (embedded defaults: SQLite, a folder as the broker, e-mail printed on the
# console; nothing else to start).
run: install
	scripts/compile-messages $(PY)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo_data
	$(PY) manage.py demo_events
	$(PY) manage.py serve 127.0.0.1:8000

# Demo users, games and a club's running Swiss without serving (`make demo ARGS=--reset`
# makes new ones).
demo: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo_data $(ARGS)
	$(PY) manage.py demo_events $(ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy games tournaments challenges conversations
	$(VENV)/bin/lint-imports

# Bytecode is written even where the environment says not to (PYTHONDONTWRITEBYTECODE,
# common in containers): else every test process (each xdist worker, every Celery worker,
# gunicorn and command the tests start) compiles the project, and pytest rewrites the
# asserts of every test module, again from source: ~8 s of CPU per worker. __pycache__ is
# git-ignored.
test: lint
	scripts/ensure-services
	scripts/ensure-chromium
	scripts/ensure-nginx
	scripts/ensure-gettext
	scripts/compile-messages $(PY)
	env -u PYTHONDONTWRITEBYTECODE $(PY) -m pytest -n auto

# Engine figures, web latencies, SQL queries per request and a short load run, then a
# summary of all of them (a few minutes).
bench: install
	$(PY) -m tests.benchmarks.bench_pairing
	$(PY) -m games.verdant.rules bench
	scripts/ensure-services
	$(PY) -m tests.benchmarks.bench_all

# 200 players in 50 games at once through the API for 120 s (gunicorn + PostgreSQL + Redis +
# a Celery worker), then the checks: replay, moves, closings, mails. `make load ARGS="--duration 60"`.
# `make load ARGS=--realistic`: people at a human pace, 250 to 3500 of them step by step, the
# capacity curve (table and SVG) and the checks (`--help` after --realistic for its options).
load: install
	scripts/ensure-services
	$(PY) -m tests.benchmarks.loadrun $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
