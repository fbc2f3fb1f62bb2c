# Levée: the two commands of the README, and a few helpers.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run test install lint bench clean

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -r requirements.txt
	touch $@

install: $(VENV)/.installed

## make run: install, migrate, load the demo tournament, serve on http://127.0.0.1:8000/
run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py compilemessages --ignore=.venv -v 0 || true
	$(PY) manage.py seed_demo
	$(PY) manage.py runserver $(HOST):$(PORT)

## make test: install, then the whole test suite (SQLite unless DATABASE_URL says otherwise)
test: install
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports
	$(PY) -m pytest $(PYTEST_ARGS)

lint: install
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports

bench: install
	$(PY) bench/rules.py

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles
