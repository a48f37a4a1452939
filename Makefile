# Two commands on a fresh machine:  `make run`  (set up, open the app)  and  `make test`  (set up, run every test).
VENV ?= .venv
PY := $(VENV)/bin/python
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: setup run test lint bench samples clean

setup:
	./scripts/setup.sh

run: setup
	$(VENV)/bin/courtroom

test: setup
	$(VENV)/bin/ruff check courtroom_desktop tests bench scripts
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest

lint: setup
	$(VENV)/bin/lint-imports
	$(VENV)/bin/ruff check courtroom_desktop tests bench scripts

bench: setup
	$(PY) bench/ingest.py

samples: setup
	$(PY) scripts/make_samples.py

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
