# Two commands on a fresh machine with Python 3.11: `make run` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install run demo test lint bench load simulate clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

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
	$(VENV)/bin/mypy games/evergreen/rules games/verdant/rules tournaments/pairing.py tournaments/seating.py tournaments/standings.py
	$(VENV)/bin/lint-imports

test: lint
	scripts/ensure-services
	scripts/ensure-chromium
	scripts/ensure-gettext
	scripts/compile-messages $(PY)
	$(PY) -m pytest -n auto

# Engine figures, web latencies, SQL queries per request and a short load run, then a
# summary of all of them (a few minutes).
bench: install
	$(PY) tests/benchmarks/bench_pairing.py
	$(PY) -m games.verdant.rules bench
	scripts/ensure-services
	$(PY) tests/benchmarks/bench_all.py

# 200 players in 50 games at once through the API for 120 s (gunicorn + PostgreSQL + Redis +
# a Celery worker), then the checks: replay, moves, closings, mails. `make load ARGS="--duration 60"`.
load: install
	scripts/ensure-services
	$(PY) tests/benchmarks/loadrun.py $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
