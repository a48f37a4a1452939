# Two commands on a fresh machine:  `make run`  (set up, open the app)  and  `make test`  (set up, run every test).
# `mypy` (in lint and test) reads its settings from pyproject.toml: strict on all of courtroom_desktop.
VENV ?= .venv
PY := $(VENV)/bin/python
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: setup run test suite lint bench samples stress clean installer smoke-installer lock test-latest

setup:
	./scripts/setup.sh

run: setup
	$(VENV)/bin/courtroom

test: setup suite

# the checks and the tests in $(VENV) as it is (test and test-latest set it up first)
suite:
	$(VENV)/bin/ruff check courtroom_desktop tests bench scripts stress installer testkit training
	$(VENV)/bin/mypy
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest $(PYTEST_ARGS)

# Resolve pyproject.toml's ranges afresh into lock/ (every platform, both sets), on purpose: docs/development.md.
lock:
	python3 scripts/lock.py compile

# The newest versions pyproject.toml allows, in a scratch venv (build/latest-venv), then the whole suite: drift seen on
# our schedule, not on a user's install day. Not part of CI. The resolved versions: build/latest-versions.txt.
test-latest:
	rm -rf build/latest-venv
	VENV=build/latest-venv RESOLVE=latest ./scripts/setup.sh
	build/latest-venv/bin/python -m pip freeze --all --exclude-editable > build/latest-versions.txt
	@echo "resolved (against the lock):" && python3 scripts/lock.py diff build/latest-versions.txt
	$(MAKE) suite VENV=build/latest-venv

lint: setup
	$(VENV)/bin/lint-imports
	$(VENV)/bin/ruff check courtroom_desktop tests bench scripts stress installer testkit training
	$(VENV)/bin/mypy

bench: setup
	$(PY) bench/ingest.py

samples: setup
	$(PY) scripts/make_samples.py

# Reliability and security: fuzzed PDFs, model faults, kill -9, prompt injection, secrets, concurrency (a few
# minutes; more iterations: make stress STRESS_ARGS="--fuzz-variants 5 --ingest-kills 50 --trial-kills 50").
stress: setup
	$(PY) -m stress $(STRESS_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info

# The desktop bundle (PyInstaller one-folder, launcher, icon, tar.xz) and its offline smoke test: docs/installer.md.
installer:
	installer/bundle_venv.sh build/bundle-venv && build/bundle-venv/bin/python installer/build.py

smoke-installer:
	$(PY) installer/smoke.py
