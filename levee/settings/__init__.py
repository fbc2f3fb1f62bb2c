"""Settings, read from the environment (django-environ).

Two modes. **Development** (``LEVEE_ENV=development``, what ``make run`` and the tests set): the embedded
configuration runs as it is — SQLite in the project folder, no broker (Celery tasks run in-process), DEBUG on, a
development key, any host. **Production** (anything else, the default): the service refuses to start without
``SECRET_KEY``; DEBUG is off unless ``DEBUG=true`` is asked; ``ALLOWED_HOSTS`` is the local host unless set;
HTTPS is assumed (``HTTPS=false`` for a plain-HTTP venue network): secure cookies, HSTS, redirect to HTTPS.
``manage.py check --deploy`` is clean with the production defaults (tests/hardening/test_production_settings.py).
"""

import json
from datetime import timedelta
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env(
    DATABASE_URL=(str, f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
    CELERY_BROKER_URL=(str, ""),
)
environ.Env.read_env(BASE_DIR / ".env", overwrite=False) if (BASE_DIR / ".env").exists() else None

LEVEE_ENV = env("LEVEE_ENV", default="production").strip().lower()
DEVELOPMENT = LEVEE_ENV in ("development", "dev")
DEVELOPMENT_SECRET_KEY = "levee-dev-only-secret-key-change-me-in-production-0123456789"

DEBUG = env.bool("DEBUG", default=DEVELOPMENT)
SECRET_KEY = env("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEVELOPMENT:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. In production, set SECRET_KEY to a long random value (e.g. the output of "
            "`python -c \"import secrets; print(secrets.token_urlsafe(50))\"`); for development, set "
            "LEVEE_ENV=development (make run does).")
    SECRET_KEY = DEVELOPMENT_SECRET_KEY
elif SECRET_KEY == DEVELOPMENT_SECRET_KEY and not DEVELOPMENT:
    raise ImproperlyConfigured("SECRET_KEY is the published development key: set a secret one in production.")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["*"] if DEVELOPMENT else ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# HTTPS (production, unless HTTPS=false): cookies only over HTTPS, HSTS, plain HTTP redirected. Behind a proxy
# that ends TLS, SECURE_PROXY_SSL_HEADER=true trusts its X-Forwarded-Proto.
HTTPS = env.bool("HTTPS", default=not DEVELOPMENT)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=HTTPS)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31_536_000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=HTTPS)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
if env.bool("SECURE_PROXY_SSL_HEADER", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Submitting a domain to the browsers' HSTS preload list is its owner's decision (SECURE_HSTS_PRELOAD=true).
# models.W040: the score rows' covering index (``scorerow_totals``) holds its non-key columns on PostgreSQL only;
# SQLite gets the same index on its key columns, as intended.
SILENCED_SYSTEM_CHECKS = ["security.W021", "models.W040"]
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# Content-Security-Policy (django-csp): CSP, a whole policy ("default-src 'self'; img-src 'self' data:" …),
# replaces the default; enforced in production, reported only in development (CSP_REPORT_ONLY overrides).
# 'wasm-unsafe-eval': the rules engine of the tap page (Pyodide, WebAssembly) compiles in the browser.
_CSP_DEFAULT = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; "
                "img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
                "form-action 'self'; frame-ancestors 'none'")


def _csp_directives(policy: str) -> dict[str, list[str]]:
    directives: dict[str, list[str]] = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            directives[words[0]] = words[1:]
    return directives


_CSP = {"DIRECTIVES": _csp_directives(env("CSP", default=_CSP_DEFAULT))}
if env.bool("CSP_REPORT_ONLY", default=DEVELOPMENT):
    CONTENT_SECURITY_POLICY_REPORT_ONLY = _CSP
else:
    CONTENT_SECURITY_POLICY = _CSP

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "django_filters",
    "django_htmx",
    "simple_history",
    "axes",
    "tournaments",
]

MIDDLEWARE = [
    "levee.middleware.RequestLogMiddleware",  # first: one log line per request, its route, status and duration
    "django.middleware.security.SecurityMiddleware",
    "levee.errors.DatabaseUnavailableMiddleware",  # a view that cannot reach the database: 503, Retry-After
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "levee.middleware.FrenchFirstLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "axes.middleware.AxesMiddleware",  # last: turns a locked-out login into the lockout page
]

ROOT_URLCONF = "levee.urls"
WSGI_APPLICATION = "levee.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # the shared templates (bases, errors, partials every audience uses), then each audience's own
        "DIRS": [BASE_DIR / "templates", *(BASE_DIR / "tournaments" / audience / "templates"
                                           for audience in ("organizer", "desk", "public"))],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournaments.desk.link_session.context",
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL")}
DATABASES["default"].setdefault("ATOMIC_REQUESTS", False)
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # The embedded database, one file for every worker thread: a transaction takes the write lock at its
    # BEGIN (IMMEDIATE) rather than at its first write, so two entries never both read and then deadlock
    # on upgrading their locks (« database is locked »); a writer waits up to ``timeout`` seconds for the
    # lock; WAL lets the pages read while a deal is being written.
    sqlite = DATABASES["default"].setdefault("OPTIONS", {})
    sqlite.setdefault("transaction_mode", "IMMEDIATE")
    sqlite.setdefault("timeout", env.int("SQLITE_TIMEOUT", default=20))
    sqlite.setdefault("init_command", "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    DATABASES["default"].setdefault("CONN_MAX_AGE", 60)
    # After a database restart a kept connection fails its next request (a 503, levee.errors) and is closed at the
    # request's end: the service recovers by itself. DATABASE_HEALTH_CHECKS=true checks a kept connection before
    # each request reuses it (one more round trip per request) so that even that request succeeds.
    DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", env.bool("DATABASE_HEALTH_CHECKS", default=False))
    # psycopg binds parameters on the server and prepares a statement the second time a connection
    # runs it (Django turns preparing off unless prepare_threshold is given): PostgreSQL then skips
    # parsing and planning, about half its CPU per deal entered (docs/performance.md). Turn both off
    # behind a pooler in transaction mode (PgBouncer), which cannot keep prepared statements.
    if env.bool("DATABASE_SERVER_SIDE_BINDING", default=True):
        options = DATABASES["default"].setdefault("OPTIONS", {})
        options["server_side_binding"] = True
        options.setdefault("prepare_threshold", env.int("DATABASE_PREPARE_THRESHOLD", default=2))

# The cache keeps what the public pages render once per published ranking (tournaments.public.published) and
# the request rates (throttling of the stateless check and of the token endpoint, tournaments.api.throttles):
# each process's memory by default, Redis (shared by every worker) when CACHE_URL is set, e.g.
# CACHE_URL=redis://127.0.0.1:6379/1 (a database of its own, not the broker's).
CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://levee")}
CACHES["default"].setdefault("OPTIONS", {})
if CACHES["default"]["BACKEND"].endswith("LocMemCache"):
    CACHES["default"]["OPTIONS"].setdefault("MAX_ENTRIES", 1000)  # pages of ~40 KB (plain and gzip): ~40 MB at most
CACHES["default"].setdefault("KEY_PREFIX", "levee")
# how long a process keeps what it read of a tournament's published ranking before reading it again (a public
# page request reads nothing else when its page is in the cache): a new ranking reaches the pages that much later
LEVEE_PUBLIC_STATE_SECONDS = env.float("LEVEE_PUBLIC_STATE_SECONDS", default=0.1)

# The PDFs (tournaments.public.pdf) are rendered outside the web requests and kept as files in LEVEE_PDF_ROOT, one
# file per document and published state. LEVEE_RENDER_IN: where that work runs: "worker" (Celery, the default with a
# broker), "thread" (one background thread of each web process, the default without one) or "manual" (tests).
LEVEE_PDF_ROOT = env("LEVEE_PDF_ROOT", default=str(BASE_DIR / "var" / "pdf"))
# A proxy in front that sends those kept files itself (nginx, deploy/nginx-levee.conf): the internal location
# aliased to LEVEE_PDF_ROOT, e.g. "/_kept/". The request still decides access, ETag/304 and « en préparation », and
# answers X-Accel-Redirect instead of the file's bytes. Empty (the default): the web process sends the file itself.
LEVEE_ACCEL_REDIRECT = env("LEVEE_ACCEL_REDIRECT", default="")
LEVEE_RENDER_IN = env("LEVEE_RENDER_IN", default="worker" if env("CELERY_BROKER_URL") else "thread")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Guessing passwords (django-axes): after LOGIN_FAILURE_LIMIT failures for one user name from one address, that
# pair is locked out for LOGIN_COOLOFF_MINUTES (a page saying so, HTTP 429); a success clears the count. Locking
# a name from one address only: a whole venue behind one address is not locked out by one careless phone, and a
# user cannot be locked out by strangers. The token endpoint is also throttled per name, then per address (DRF).
AUTHENTICATION_BACKENDS = [
    "levee.login_attempts.LoginAttemptsBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_LOCKOUT_CALLABLE = "levee.login_attempts.lockout_response"  # JSON under /api/, the page elsewhere
AXES_VERBOSE = False

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", "Français"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Paris"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS: list[Path | tuple[str, Path]] = [BASE_DIR / "static"]
# Pyodide (npm, pinned in vendor/pyodide/package-lock.json; `make install` fetches it when npm is there): the rules
# engine of the tap page without network, served under a versioned prefix. Absent, the page asks the server only.
_PYODIDE = BASE_DIR / "vendor" / "pyodide" / "node_modules" / "pyodide"
PYODIDE_VERSION = (json.loads((_PYODIDE / "package.json").read_text(encoding="utf-8"))["version"]
                   if (_PYODIDE / "pyodide.asm.wasm").is_file() else None)
if PYODIDE_VERSION:
    STATICFILES_DIRS.append((f"pyodide-{PYODIDE_VERSION}", _PYODIDE))
# files a browser asks for at the site's root (/favicon.ico, at every phone's first page): served by WhiteNoise
# before any view, never a 404 page rendered by Django for each spectator
WHITENOISE_ROOT = BASE_DIR / "levee" / "root_files"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # the token first: a missing or bad token is then a 401 with "WWW-Authenticate: Token" (DRF answers with
        # the first class's header; the session sends none, which made every refusal a 403)
        "tournaments.api.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 100,
    "DEFAULT_PARSER_CLASSES": [
        "tournaments.api.parsers.BoundedJSONParser",  # size, depth and Unicode checked: a 4xx, never a 500
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # counted in the cache below (Redis when configured: shared by every gunicorn worker)
    "DEFAULT_THROTTLE_RATES": {
        "arbitrate_anon": env("THROTTLE_ARBITRATE_ANON", default="30/min"),
        "arbitrate_user": env("THROTTLE_ARBITRATE_USER", default="600/min"),
        # the token endpoint: per name first (one phone's wrong passwords throttle that name only), then per
        # address, sized for a hall of 100 people behind one router each logging in once or twice a minute
        "login_user": env("THROTTLE_LOGIN_USER", default="10/min"),
        "login": env("THROTTLE_LOGIN", default="300/min"),
    },
    # behind a reverse proxy, how many of them append to X-Forwarded-For (the client address of the rates)
    "NUM_PROXIES": env.int("NUM_PROXIES", default=None),
}

#: the largest record ``POST /api/arbitrate/`` reads, in bytes (a long match is a few hundred kB)
ARBITRATE_MAX_BYTES = env.int("ARBITRATE_MAX_BYTES", default=1_000_000)

SPECTACULAR_SETTINGS = {
    "TITLE": "Levée API",
    "DESCRIPTION": "Tournament desk for French card games: tournaments, deals, rulings, rankings.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI from our own static files (drf-spectacular-sidecar): a venue without internet still has it
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # three models have a "status": one enum name each (else drf-spectacular warns in check --deploy)
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatusEnum": "tournaments.event.models.Tournament.Status",
        "RoundStatusEnum": "tournaments.event.models.Round.Status",
        "DealStatusEnum": "tournaments.deals.models.Deal.Status",
    },
}

# Celery: no broker configured means tasks run eagerly, in-process.
# (Celery still builds a producer for eager calls: the in-memory transport keeps it from naming a host.)
_BROKER = env("CELERY_BROKER_URL")
CELERY_BROKER_URL = _BROKER or "memory://localhost/"
CELERY_TASK_ALWAYS_EAGER = not _BROKER
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A counted tournament's publication ranks its championships again CHAMPIONSHIP_SETTLE_SECONDS later, once for all
# the publications meanwhile (tournaments.seasons.tasks): at a 10,000-player event the tournament publishes every
# second or so during play while its championship takes 0.8 – 2.5 s to rank, on the rankings' worker; a season's
# standing can be ten seconds late, a deal's ranking not. 0: at once, every time.
CHAMPIONSHIP_SETTLE_SECONDS = env.int("CHAMPIONSHIP_SETTLE_SECONDS", default=10)
# The ranking refresh in a worker waits for a burst of entries to end (the inputs quiet this long, at most the
# second figure) and publishes once (tournaments.standings.tasks); a refresh whose worker died is taken over by
# another worker once its 5-second lease expires (checked every second).
RANKING_SETTLE_MS = env.int("RANKING_SETTLE_MS", default=200)
RANKING_SETTLE_MAX_MS = env.int("RANKING_SETTLE_MAX_MS", default=3000)
# The renders (the PDFs, and the pages rendered at publication: tournaments.public.tasks) go to a queue of their own,
# so that a ranking refresh never waits behind a print-out (a 10,000-player publication's renders take seconds, a
# PDF of a big round tens of seconds). A worker started without -Q consumes both queues (one machine); a server runs
# one worker per queue (-Q celery, -Q prints: docs/deploy.md). Without a broker, tasks run in-process, no queue.
LEVEE_PRINTS_QUEUE = env("LEVEE_PRINTS_QUEUE", default="prints")
CELERY_TASK_DEFAULT_QUEUE = "celery"
# each queue bound by its own routing key (by default both take the key « celery »: on an AMQP broker's direct
# exchange every message would reach both queues; Redis delivers by queue name either way)
CELERY_TASK_QUEUES = tuple(Queue(name, routing_key=name) for name in (CELERY_TASK_DEFAULT_QUEUE, LEVEE_PRINTS_QUEUE))
# A worker that consumes both queues (one machine) takes a waiting refresh before any waiting render: Redis is asked
# for the queues in their order above (the refreshes' first), not in turns (kombu's default: a refresh queued behind
# three renders waited for two of them). A render already running is not interrupted: a server runs two workers.
CELERY_BROKER_TRANSPORT_OPTIONS = {"queue_order_strategy": "priority"}
CELERY_TASK_ROUTES = {name: {"queue": LEVEE_PRINTS_QUEUE}
                      for name in ("tournaments.public_render_pdf", "tournaments.public_render_published",
                                   "tournaments.public_render_download", "tournaments.render_export",
                                   "tournaments.championship_render_published")}
# celery beat (``celery -A levee beat``, or ``worker -B`` on a single machine): rankings behind their inputs
# with no refresh waiting are queued again, whatever lost their message
CELERY_BEAT_SCHEDULE = {
    "ranking-requeue-stale": {"task": "tournaments.ranking_requeue_stale", "schedule": 60.0},
    # a backup at every round's end and every LEVEE_BACKUP_EVERY_MINUTES of an event (tournaments.operations)
    "backup-if-due": {"task": "tournaments.operations_backup_if_due", "schedule": 120.0},
    # the worker's heartbeat, which the health endpoint reads
    "heartbeat": {"task": "tournaments.operations_heartbeat", "schedule": 30.0},
}
# a worker process that grew past this (KiB, after a big PDF) is replaced once its task is done
CELERY_WORKER_MAX_MEMORY_PER_CHILD = env.int("CELERY_WORKER_MAX_MEMORY_PER_CHILD", default=400_000)
# the worker logs through LOGGING below (one JSON line per task), not through Celery's own formatting
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]

# the debug page (development) hides passwords written in URLs (DATABASE_URL …) as well as secrets' settings
DEFAULT_EXCEPTION_REPORTER_FILTER = "levee.errors.SafeExceptionReporterFilter"

# Backups (tournaments/operations/backup.py, docs/deploy.md): the folder, how many are kept, how often during an event
LEVEE_BACKUP_DIR = Path(env("LEVEE_BACKUP_DIR", default=str(BASE_DIR / "backups")))
LEVEE_BACKUP_KEEP = env.int("LEVEE_BACKUP_KEEP", default=48)
LEVEE_BACKUP_EVERY_MINUTES = env.int("LEVEE_BACKUP_EVERY_MINUTES", default=60)
# Health (/health/): computed at most once per LEVEE_HEALTH_SECONDS per process; a worker silent for three
# heartbeats, or a running tournament's ranking behind its entries longer than the lag below, is reported
LEVEE_HEALTH_SECONDS = env.float("LEVEE_HEALTH_SECONDS", default=5.0)
LEVEE_HEARTBEAT_SECONDS = env.int("LEVEE_HEARTBEAT_SECONDS", default=30)
LEVEE_HEALTH_RANKING_LAG_SECONDS = env.int("LEVEE_HEALTH_RANKING_LAG_SECONDS", default=60)
# a load balancer probes /health/ in plain HTTP
SECURE_REDIRECT_EXEMPT = [r"^health/$"]

# Logs on the standard error: one JSON line per record in production (LOG_FORMAT=json, python-json-logger), plain
# text in development; one line per request (levee.request: route, status, duration; LOG_REQUESTS, on by default
# in production) and one per Celery task (levee.task).
LOG_FORMAT = env("LOG_FORMAT", default="text" if DEVELOPMENT else "json").strip().lower()
LOG_REQUESTS = env.bool("LOG_REQUESTS", default=not DEVELOPMENT)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
        "text": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler",
                             "formatter": "json" if LOG_FORMAT == "json" else "text"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="WARNING")},
    "loggers": {
        "levee.request": {"level": "INFO" if LOG_REQUESTS else "WARNING"},
        # Django's own « Not Found: /k/<token>/ » lines would write a private link's token: levee.request says
        # the route and the status of every request; django.request keeps the errors (5xx)
        "django.request": {"level": "ERROR"},
        "levee.task": {"level": "INFO"},
        "levee.operations": {"level": "INFO"},
    },
}

# Error collection (optional): with SENTRY_DSN set, errors of the web and of the worker go to Sentry (sentry-sdk),
# without personal data (no user names, addresses or request bodies)
SENTRY_DSN = env("SENTRY_DSN", default="")
if SENTRY_DSN:
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        environment=env("SENTRY_ENVIRONMENT", default=LEVEE_ENV),
        traces_sample_rate=env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0),
        send_default_pii=False,
        max_request_body_size="never",
    )
