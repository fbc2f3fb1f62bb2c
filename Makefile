# Levée: the two commands of the README, and a few helpers.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
HOST   ?= 127.0.0.1
PORT   ?= 8000
DEMO   ?= yes

.PHONY: run test install lint bench clean upgrade

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -r requirements.txt
	touch $@

# Pyodide for the tap page's rules engine without network (pinned in vendor/pyodide/package-lock.json, served by the
# service as static files). Without npm the page still works and asks the server only (README).
PYODIDE := vendor/pyodide/node_modules/pyodide/pyodide.asm.wasm
$(PYODIDE): vendor/pyodide/package-lock.json
	@if command -v npm >/dev/null 2>&1; then npm ci --prefix vendor/pyodide --silent --no-audit --no-fund && touch $@; \
	else echo "npm not found: the tap page will check cards with the server only (no rules engine offline)."; fi

install: $(VENV)/.installed $(PYODIDE)

# axe-core for the browser tests' accessibility checks (pinned in tests/browser/axe/package-lock.json; needs npm)
AXE := tests/browser/axe/node_modules/axe-core/axe.min.js
$(AXE): tests/browser/axe/package-lock.json
	npm ci --prefix tests/browser/axe --silent --no-audit --no-fund
	touch $@

## make run: install, back up then migrate (manage.py upgrade), load the demo tournament, serve on
## http://127.0.0.1:8000/ (development mode)
# Off 127.0.0.1 (HOST=0.0.0.0 to serve the venue's phones) the demo logins never get the published password.
LOOPBACK := $(filter $(HOST),127.0.0.1 localhost ::1)
run: export LEVEE_ENV = development
run: install
	@echo "Levée — MODE DÉVELOPPEMENT / DEVELOPMENT MODE (LEVEE_ENV=development: DEBUG on, development key)."
	@echo "Not for production: see README, « Serve the venue's phones » and « Production »."
	$(PY) manage.py upgrade
	$(PY) manage.py compilemessages --ignore=.venv -v 0 || true
ifeq ($(DEMO),no)
	@echo "DEMO=no: no demo tournament or login added (a club's own database, e.g. after « manage.py restore »)."
else ifeq ($(LOOPBACK),)
	@echo "WARNING: HOST=$(HOST) is reachable from the network: the demo logins keep their passwords (new ones get"
	@echo "a random password, printed below); never the published one. Set SECRET_KEY and DEBUG=false (README)."
	$(PY) manage.py seed_demo --private-passwords
else
	$(PY) manage.py seed_demo
endif
	@echo "Sauvegardes automatiques dans $${LEVEE_BACKUP_DIR:-backups/} (fin de manche, chaque heure de tournoi)."
	$(PY) manage.py backup --watch >/dev/null & WATCH=$$!; trap 'kill $$WATCH 2>/dev/null' EXIT INT TERM; \
	$(PY) manage.py runserver $(HOST):$(PORT)

## make upgrade: after fetching a new version, install its requirements, back up the database, then migrate it
## (manage.py upgrade; README, « Mettre à jour et revenir en arrière »)
upgrade: install
	$(PY) manage.py upgrade
	$(PY) manage.py compilemessages --ignore=.venv -v 0 || true

## make test: install, then the whole test suite (SQLite unless DATABASE_URL says otherwise; tests.settings sets
## LEVEE_ENV=development), after the checks of `make lint`; needs Chromium at /usr/bin/chromium and npm (axe-core)
## for the browser tests
# the suite on two processes (pytest-xdist; each file on one process: the browser tests and the events keep their
# module's data), one test database each; PYTEST_ARGS= runs it in one process
PYTEST_ARGS ?= -n 2 --dist loadfile
test: export LEVEE_ENV = development
test: install $(AXE)
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports
	$(PY) -m mypy
	$(PY) -m pytest $(PYTEST_ARGS)

## make lint: ruff, the import contracts, and mypy as pyproject.toml's [tool.mypy] says (rules/ and scoring/ under
## --strict, tournaments/common and tournaments/standings with django-stubs; cache in .mypy_cache)
lint: install
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports
	$(PY) -m mypy

bench: export LEVEE_ENV = development
bench: install
	$(PY) bench/rules.py

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles vendor/pyodide/node_modules
