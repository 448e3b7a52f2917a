"""The production packaging: the lock the image installs from, the Dockerfile, docker/compose.yml and the
entry point, checked without a Docker engine.

* ``requirements/prod.lock`` pins, with hashes, every runtime dependency of pyproject.toml and of its
  ``prod`` extra, each at a version inside pyproject's range (``make lock`` regenerates it).
* docker/compose.yml validates against the Compose specification — with check-jsonschema, as
  ``make check-compose`` and CI do, and with its YAML anchors and merge keys resolved, service by service —
  and a deliberately broken copy is refused (the merge keys hide no error).
* Every service runs a command the entry point knows, every Celery queue is served by a worker, every
  environment variable compose passes is one the settings or the entry point read, and each is documented.
"""
from __future__ import annotations

import ast
import importlib.resources
import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from federation.queues import QUEUES

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements" / "prod.lock"
PYPROJECT = ROOT / "pyproject.toml"
DOCKERFILE = ROOT / "docker" / "Dockerfile"
COMPOSE = ROOT / "docker" / "compose.yml"
ENTRYPOINT = ROOT / "docker" / "entrypoint.sh"
ENV_EXAMPLE = ROOT / "docker" / "env.example"
SETTINGS_DIR = ROOT / "federation" / "settings"

# The image's interpreter and platform (docker/Dockerfile: python:3.11-slim-bookworm, linux/amd64).
TARGET_ENV = {
    "python_version": "3.11", "python_full_version": "3.11.0", "sys_platform": "linux", "platform_system": "Linux",
    "platform_machine": "x86_64", "os_name": "posix", "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
}


# --- the lock -----------------------------------------------------------------------------------------------

def parse_lock(text: str) -> dict[str, dict]:
    """``{canonical name: {"version": Version, "hashes": [...], "line": str}}`` of a pip-compile lock."""
    pins: dict[str, dict] = {}
    current = None
    for raw in text.splitlines():
        line = raw.split(" #", 1)[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if not line.strip():
            continue
        if line.startswith((" ", "\t")):  # a continuation: --hash=sha256:...
            hashes = re.findall(r"--hash=(sha256:[0-9a-f]{64})", line)
            assert current is not None and hashes, f"unexpected continuation line in the lock: {raw!r}"
            current["hashes"].extend(hashes)
            continue
        spec = line.rstrip("\\").strip()
        assert not spec.startswith("-"), f"option lines have no place in the lock: {raw!r}"
        req = Requirement(spec)
        specs = list(req.specifier)
        assert len(specs) == 1 and specs[0].operator == "==", f"not pinned with ==: {raw!r}"
        current = {"version": Version(specs[0].version), "hashes": [], "line": spec}
        pins[canonicalize_name(req.name)] = current
    return pins


def runtime_requirements(pyproject: dict) -> list[Requirement]:
    """pyproject's ``dependencies`` + the ``prod`` extra, those whose marker holds on the image."""
    project = pyproject["project"]
    reqs = [Requirement(r) for r in project["dependencies"] + project["optional-dependencies"]["prod"]]
    return [r for r in reqs if r.marker is None or r.marker.evaluate({**TARGET_ENV, "extra": ""})]


def lock_problems(requirements: list[Requirement], pins: dict[str, dict]) -> list[str]:
    """Why the lock does not satisfy ``requirements``: a package missing, or pinned outside the range."""
    problems = []
    for req in requirements:
        pin = pins.get(canonicalize_name(req.name))
        if pin is None:
            problems.append(f"{req.name}: required by pyproject.toml ({req}) but missing from the lock")
        elif not req.specifier.contains(pin["version"], prereleases=True):
            problems.append(f"{req.name}: the lock pins {pin['version']}, outside pyproject's range {req.specifier}")
    return problems


def test_the_lock_pins_every_runtime_dependency_inside_pyprojects_range():
    pyproject = tomllib.loads(PYPROJECT.read_text())
    pins = parse_lock(LOCK.read_text())
    # the image installs the project with --no-build-isolation --no-index: its build backend is locked too
    backend = [Requirement(r) for r in pyproject["build-system"]["requires"]]
    problems = lock_problems(runtime_requirements(pyproject) + backend, pins)
    assert not problems, "\n".join(problems) + "\nrequirements/prod.lock is out of date: run `make lock`"


def test_every_pin_of_the_lock_carries_hashes_and_the_lock_is_for_the_images_python():
    text = LOCK.read_text()
    pins = parse_lock(text)
    assert len(pins) > 20
    assert not [name for name, pin in pins.items() if not pin["hashes"]]
    assert "autogenerated by pip-compile with Python 3.11" in text
    assert re.search(r"^FROM python:3\.11[-.]", DOCKERFILE.read_text(), re.M), "the lock is resolved for Python 3.11"


def test_the_lock_check_catches_a_missing_package_and_a_pin_out_of_range():
    pins = parse_lock(
        "django==5.1.4 \\\n    --hash=sha256:" + "a" * 64 + "\n"
        "celery==5.4.0 \\\n    --hash=sha256:" + "b" * 64 + "\n    # via mangala-federation (pyproject.toml)\n"
    )
    reqs = [Requirement("Django>=5.2,<5.3"), Requirement("celery[redis]>=5.4"), Requirement("gunicorn>=22"),
            Requirement("pywin32>=300; sys_platform == 'win32'")]
    reqs = [r for r in reqs if r.marker is None or r.marker.evaluate({**TARGET_ENV, "extra": ""})]
    problems = lock_problems(reqs, pins)
    assert len(problems) == 2
    assert problems[0].startswith("Django: the lock pins 5.1.4, outside")
    assert problems[1].startswith("gunicorn: required by pyproject.toml")
    with pytest.raises(AssertionError, match="not pinned"):
        parse_lock("django>=5.2\n")


def test_the_image_installs_from_the_lock_only_and_runs_as_a_user():
    text = DOCKERFILE.read_text()
    assert "pip install --require-hashes --no-deps -r requirements/prod.lock" in text
    project_installs = re.findall(r"pip install ([^\n\\&]*)", text)
    assert project_installs == ["--require-hashes --no-deps -r requirements/prod.lock ",
                                "--no-deps --no-build-isolation --no-index . "], project_installs
    users = re.findall(r"^USER\s+(\S+)", text, re.M)
    assert users and users[-1].split(":")[0] not in ("root", "0")
    assert 'ENTRYPOINT ["/app/docker/entrypoint.sh"]' in text
    assert "collectstatic" in text and "compilemessages" in text


def test_make_lock_and_check_compose_exist_and_ci_runs_the_check():
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^lock:", makefile, re.M) and re.search(r"^check-compose:", makefile, re.M)
    assert "--generate-hashes" in makefile and "vendor.compose-spec docker/compose.yml" in makefile
    ci = (ROOT / ".ci" / "run").read_text()
    step2 = ci.split("# --- 2.", 1)[1].split("# --- 3.", 1)[0]
    assert "make --no-print-directory check-compose" in step2


# --- make run installs what running needs, make test adds the [dev] extras (issue 25) -----------------------

def dev_only_packages(pyproject: dict) -> set[str]:
    """Names in the ``dev`` extra that running does not need (not in ``dependencies``)."""
    project = pyproject["project"]
    runtime = {canonicalize_name(Requirement(r).name) for r in project["dependencies"]}
    return {canonicalize_name(Requirement(r).name) for r in project["optional-dependencies"]["dev"]} - runtime


def make_dry_run(target: str, tmp_path: Path) -> str:
    """What ``make <target>`` would run from a fresh clone: ``make -n -B`` (print every recipe, run none)
    with the virtualenv in an empty folder."""
    if shutil.which("make") is None:
        pytest.skip("no make")
    done = subprocess.run(["make", "-n", "-B", "--no-print-directory", target, f"VENV={tmp_path / 'venv'}"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def pip_installs(commands: str) -> list[str]:
    """The ``pip install`` arguments of a dry run, one string per install command."""
    return [m.group(1) for m in re.finditer(r"-m pip install ([^>\n]*)", commands)]


def test_make_run_installs_no_dev_only_package(tmp_path):
    pyproject = tomllib.loads(PYPROJECT.read_text())
    dev_only = dev_only_packages(pyproject)
    assert {"pytest", "playwright", "schemathesis", "hypothesis"} <= dev_only
    run = make_dry_run("run", tmp_path)
    installs = pip_installs(run)
    assert installs, "make run installs the project"
    assert "runserver" in run
    for args in installs:
        words = set(re.findall(r"[A-Za-z0-9][A-Za-z0-9._-]*", args.replace("[", " ").replace("]", " ")))
        assert "[" not in args, f"make run installs extras: {args!r}"
        assert not {canonicalize_name(w) for w in words} & dev_only, f"make run installs a test tool: {args!r}"
    assert "[dev" not in run and "installed-dev" not in run
    # `make test` (and so .ci/run) still gets the test tools
    test = make_dry_run("test", tmp_path)
    assert any("'.[dev]'" in args for args in pip_installs(test)), "make test installs the [dev] extras"
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make --no-print-directory test\n" in ci
    step2 = ci.split("# --- 2.", 1)[1].split("# --- 3.", 1)[0]
    assert "make --no-print-directory venv-dev" in step2  # manage.py check and check-compose: the dev tools


# --- compose: the specification -----------------------------------------------------------------------------

def compose_schema() -> dict:
    path = importlib.resources.files("check_jsonschema.builtin_schemas.vendor") / "compose-spec.json"
    return json.loads(path.read_text())


def load_compose(text: str | None = None) -> dict:
    """docker/compose.yml as compose sees it before interpolation: anchors and ``<<:`` merge keys resolved
    (PyYAML's safe loader resolves both)."""
    return yaml.safe_load(COMPOSE.read_text() if text is None else text)


def schema_errors(document: dict) -> list[str]:
    """The Compose-specification errors of ``document`` (merged services), as ``path: message``."""
    import jsonschema

    schema = compose_schema()
    validator = jsonschema.validators.validator_for(schema)(schema)
    errors = []
    for error in validator.iter_errors(document):
        errors.append(f"{'.'.join(map(str, error.absolute_path)) or '$'}: {error.message}")
    return sorted(errors)


def check_jsonschema(*files: Path) -> subprocess.CompletedProcess:
    pytest.importorskip("check_jsonschema", reason="check-jsonschema is in the [dev] extras")
    return subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.compose-spec",
                           *map(str, files)], capture_output=True, text=True, timeout=120)


def test_the_compose_file_validates_against_the_compose_specification():
    out = check_jsonschema(COMPOSE)
    assert out.returncode == 0, out.stdout + out.stderr
    assert schema_errors(load_compose()) == []


def _broken_copies() -> dict[str, str]:
    text = COMPOSE.read_text()
    # a misspelt key inside the x-app anchor: it reaches the services only through `<<: *app`
    anchor = text.replace("\nx-app: &app\n", "\nx-app: &app\n  restrat: unless-stopped\n", 1)
    # a wrong type for `ports` (a number instead of a list) in the nginx service (the only one published)
    ports = re.sub(r"    ports:\n      - \"[^\"]*\"\n", "    ports: 8000\n", text, count=1)
    assert anchor != text and ports != text, "the compose file changed: update the deliberate breakages"
    return {"anchor": anchor, "ports": ports}


def test_a_broken_compose_file_is_refused_merge_keys_hide_nothing(tmp_path):
    broken = _broken_copies()
    files = {}
    for name, text in broken.items():
        files[name] = tmp_path / f"compose-{name}.yml"
        files[name].write_text(text)
    out = check_jsonschema(*files.values())
    assert out.returncode != 0
    report = out.stdout + out.stderr
    # the key misspelt in the anchor is found in every service merged from it, by both checks
    app_services = sorted(app_image_services())
    for service in app_services:
        path = rf"(\.{re.escape(service)}|\['{re.escape(service)}'\])"  # $.services.web, $.services['worker-pdf']
        assert re.search(rf"compose-anchor\.yml::\$\.services{path}: .*'restrat'", report), report
    assert re.search(r"compose-ports\.yml::\$\.services\.nginx\.ports: 8000 is not of type 'array'", report), report

    anchor_errors = schema_errors(load_compose(broken["anchor"]))
    assert sorted({e.split(":")[0] for e in anchor_errors}) == [f"services.{s}" for s in app_services]
    assert all("restrat" in e for e in anchor_errors)
    assert any(e.startswith("services.nginx.ports: 8000 is not of type 'array'")
               for e in schema_errors(load_compose(broken["ports"])))


# --- compose: what the services run -------------------------------------------------------------------------

def app_image_services(compose: dict | None = None) -> list[str]:
    """Names of the services that run the project's image, mangala-federation (not PostgreSQL, Redis, nginx
    or PgBouncer)."""
    services = (compose or load_compose())["services"]
    return [n for n, s in services.items() if str(s.get("image", "")).split(":")[0] == "mangala-federation"]


def app_services() -> dict[str, dict]:
    """The services that run the project's image (the others are PostgreSQL, Redis, nginx, PgBouncer)."""
    services = load_compose()["services"]
    return {n: services[n] for n in app_image_services()}


def entrypoint_commands() -> set[str]:
    """The roles of docker/entrypoint.sh: the labels of its `case "$cmd"` (without the `*` fallback)."""
    body = ENTRYPOINT.read_text().split('case "$cmd" in', 1)[1].split("esac", 1)[0]
    labels = set()
    for pattern in re.findall(r"^  ([^\s()]+)\)\s*$", body, re.M):
        labels.update(pattern.split("|"))
    labels.discard("*")
    return labels


def test_every_service_runs_a_command_the_entrypoint_knows():
    known = entrypoint_commands()
    assert {"web", "worker", "beat", "manage"} <= known
    services = app_services()
    assert {"web", "beat"} <= services.keys()
    for name, service in services.items():
        command = service.get("command")
        assert isinstance(command, list) and command, f"{name}: give the command as a list"
        assert command[0] in known, f"{name}: {command[0]!r} is not a role of docker/entrypoint.sh ({sorted(known)})"
    cmd = re.search(r'^CMD \["([^"]+)"', DOCKERFILE.read_text(), re.M)
    assert cmd and cmd.group(1) in known


def worker_services() -> dict[str, list[str]]:
    """{service: the queues it serves} for every service running `worker` (WORKER_QUEUES, default all)."""
    out = {}
    for name, service in app_services().items():
        if service["command"][0] == "worker":
            queues = service.get("environment", {}).get("WORKER_QUEUES", ",".join(QUEUES))
            out[name] = [q.strip() for q in str(queues).split(",") if q.strip()]
    return out


def test_every_queue_is_served_by_a_worker_and_every_worker_queue_exists():
    workers = worker_services()
    assert {"worker", "worker-pdf", "worker-ratings"} <= workers.keys()
    served = {q for queues in workers.values() for q in queues}
    assert set(QUEUES) <= served, f"queues no worker serves: {sorted(set(QUEUES) - served)}"
    assert served <= set(QUEUES), f"unknown queues in WORKER_QUEUES: {sorted(served - set(QUEUES))}"
    entrypoint = ENTRYPOINT.read_text()
    assert 'WORKER_QUEUES' in entrypoint and '-Q "$queues"' in entrypoint
    # each worker has a concurrency variable of its own
    concurrency = {name: app_services()[name]["environment"]["WORKER_CONCURRENCY"] for name in workers}
    assert len(set(concurrency.values())) == len(concurrency), concurrency


def test_health_checks_and_start_order():
    compose = load_compose()
    services = compose["services"]
    web_check = " ".join(services["web"]["healthcheck"]["test"])
    assert "/healthz" in web_check and "127.0.0.1" in web_check and "8000" in web_check
    for name in worker_services():
        check = " ".join(services[name]["healthcheck"]["test"])
        assert "inspect ping" in check and "celery@$$HOSTNAME" in check, name
    for name in ("db", "redis"):
        assert services[name].get("healthcheck"), name
    for name in ["web", *worker_services()]:
        depends = services[name]["depends_on"]
        assert {"db", "redis"} <= depends.keys(), name
        assert all(d.get("condition") == "service_healthy" for d in depends.values()), name
    redis = services["redis"]
    assert "--appendonly" in redis["command"] and redis["command"][redis["command"].index("--appendonly") + 1] == "yes"
    assert any(str(v).split(":")[1] == "/data" for v in redis["volumes"]) and "redisdata" in compose["volumes"]


# --- environment variables ------------------------------------------------------------------------------------

def settings_env_names() -> set[str]:
    """Every variable federation/settings/*.py reads: ``env("X")``, ``env.int("X")``, ``env.db("X")``, ..."""
    names = set()
    for path in SETTINGS_DIR.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            func = node.func
            is_env = (isinstance(func, ast.Name) and func.id == "env") or (
                isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "env")
            first = node.args[0]
            if is_env and isinstance(first, ast.Constant) and isinstance(first.value, str):
                names.add(first.value)
    return names


def entrypoint_env_names() -> set[str]:
    text = ENTRYPOINT.read_text()
    return set(re.findall(r"\$\{([A-Z][A-Z0-9_]*)", text)) | set(re.findall(r'os\.environ\.get\("([A-Z][A-Z0-9_]*)"', text))


def compose_interpolated_names() -> set[str]:
    """The ``${NAME...}`` compose fills from docker/.env or the shell (``$$`` is a literal dollar)."""
    body = "\n".join(line for line in COMPOSE.read_text().splitlines() if not line.lstrip().startswith("#"))
    return set(re.findall(r"(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)", body))


def test_settings_read_env_names_the_helper_finds():
    names = settings_env_names()
    assert {"DJANGO_SECRET_KEY", "DATABASE_URL", "REDIS_URL", "DJANGO_SECURE_SSL_REDIRECT", "SITE_URL"} <= names


def test_every_variable_compose_passes_is_read_by_the_settings_or_the_entrypoint():
    readers = settings_env_names() | entrypoint_env_names() | {"DJANGO_SETTINGS_MODULE"}
    for name, service in app_services().items():
        unknown = sorted(set(service.get("environment", {})) - readers)
        assert not unknown, f"{name} passes variables nothing reads (misspelt?): {unknown}"


def test_every_compose_variable_is_documented_in_the_header_and_in_env_example():
    text = COMPOSE.read_text()
    header = text.split("\nname:", 1)[0]
    example = ENV_EXAMPLE.read_text()
    example_names = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]*)=", example, re.M))
    for name in sorted(compose_interpolated_names()):
        # API_THROTTLE_ANON / _USER: the header writes the pair once
        documented = re.search(rf"\b{name}\b", header) or (name == "API_THROTTLE_USER" and "API_THROTTLE_ANON / _USER" in header)
        assert documented, f"{name}: not in docker/compose.yml's header comment"
        assert name in example_names, f"{name}: not in docker/env.example"
    # and the reverse: a variable set in docker/.env that compose never reads would be silently ignored
    assert example_names <= compose_interpolated_names(), sorted(example_names - compose_interpolated_names())


def test_every_entrypoint_tuning_variable_compose_could_set_is_passed_to_its_service():
    services = app_services()
    web_env, worker_env = services["web"]["environment"], services["worker"]["environment"]
    for name in ("WEB_CONCURRENCY", "GUNICORN_THREADS", "GUNICORN_TIMEOUT", "GUNICORN_MAX_REQUESTS",
                 "GUNICORN_MAX_REQUESTS_JITTER", "FORWARDED_ALLOW_IPS", "DJANGO_MIGRATE"):
        assert name in web_env, name
    for name in ("WORKER_QUEUES", "WORKER_CONCURRENCY", "WORKER_MAX_TASKS_PER_CHILD", "CELERY_LOG_LEVEL"):
        assert name in worker_env, name
    assert entrypoint_env_names() >= {"WEB_CONCURRENCY", "GUNICORN_THREADS", "WORKER_QUEUES", "WORKER_CONCURRENCY"}


def test_the_worker_role_refuses_an_unknown_queue():
    """docker/entrypoint.sh's queue check: a misspelt queue stops the worker before it starts."""
    script = ENTRYPOINT.read_text().split("worker_queues() {\n  python - <<'PY'\n", 1)[1].split("\nPY\n", 1)[0]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    ok = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                        env={**env, "WORKER_QUEUES": "pdf, ratings", "CELERY_QUEUE_PREFIX": "x-"})
    assert ok.returncode == 0 and ok.stdout.strip() == "x-pdf,x-ratings", ok.stderr
    every = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, env=env)
    assert every.stdout.strip() == ",".join(QUEUES)
    bad = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                         env={**env, "WORKER_QUEUES": "default,pfd"})
    assert bad.returncode == 2 and "pfd" in bad.stderr


# --- the front: nginx before two gunicorn servers ---------------------------------------------------------------

NGINX_DIR = ROOT / "docker" / "nginx"


def test_nginx_is_the_only_published_port_in_front_of_two_web_servers():
    services = load_compose()["services"]
    published = sorted(n for n, s in services.items() if s.get("ports"))
    assert published == ["nginx"], published
    nginx = services["nginx"]
    assert str(nginx["ports"][0]).endswith(":80")
    upstream = nginx["environment"]["MANGALA_UPSTREAM_SERVERS"]
    assert re.findall(r"server (\S+?):8000", upstream) == ["web", "web2"]
    assert nginx["build"]["context"] == "nginx" and (NGINX_DIR / nginx["build"]["dockerfile"]).exists()
    assert any(str(v).startswith("static:") and str(v).endswith(":ro") for v in nginx["volumes"])
    web, web2 = services["web"], services["web2"]
    assert web["environment"]["DJANGO_BEHIND_PROXY"] == "true" and web2["environment"]["DJANGO_BEHIND_PROXY"] == "true"
    # only `web` migrates and fills the static volume; web2 waits for it
    assert str(web["environment"]["DJANGO_MIGRATE"]).startswith("${DJANGO_MIGRATE")
    assert web2["environment"]["DJANGO_MIGRATE"] == "0" and web2["environment"]["STATIC_EXPORT_DIR"] == ""
    assert web2["depends_on"]["web"]["condition"] == "service_healthy"
    assert web2["healthcheck"] == web["healthcheck"]
    export = web["environment"]["STATIC_EXPORT_DIR"]
    assert f"static:{export}" in web["volumes"]
    assert f"mkdir -p var/media var/static-export" in DOCKERFILE.read_text()
    assert 'cp -R var/static/. "$STATIC_EXPORT_DIR"/' in ENTRYPOINT.read_text()


def test_the_nginx_template_render_script_and_image_agree_on_the_names():
    template = (NGINX_DIR / "mangala.conf.template").read_text()
    render = (NGINX_DIR / "render.sh").read_text()
    placeholders = set(re.findall(r"\$\{(MANGALA_[A-Z_]+)\}", template))
    envsubst_list = re.search(r"envsubst '([^']+)'", render).group(1)
    assert set(re.findall(r"\$\{(MANGALA_[A-Z_]+)\}", envsubst_list)) == placeholders
    defaults = set(re.findall(r'^: "\$\{(MANGALA_[A-Z_]+):=', render, re.M))
    assert defaults == placeholders  # every value has a default, so a missing one never renders as empty
    compose_env = load_compose()["services"]["nginx"]["environment"]
    assert set(compose_env) <= placeholders
    sh = subprocess.run(["sh", "-n", str(NGINX_DIR / "render.sh")], capture_output=True, text=True)
    assert sh.returncode == 0, sh.stderr
