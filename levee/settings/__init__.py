"""Settings, read from the environment (django-environ).

Everything has a default that runs the embedded configuration: SQLite in the
project folder, no broker (Celery tasks run in-process), French first.
"""

from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env(
    DEBUG=(bool, True),
    SECRET_KEY=(str, "levee-dev-only-secret-key-change-me-in-production-0123456789"),
    ALLOWED_HOSTS=(list, ["*"]),
    DATABASE_URL=(str, f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
    CELERY_BROKER_URL=(str, ""),
)
environ.Env.read_env(BASE_DIR / ".env", overwrite=False) if (BASE_DIR / ".env").exists() else None

DEBUG = env("DEBUG")
SECRET_KEY = env("SECRET_KEY")
ALLOWED_HOSTS = env("ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

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
    "django_filters",
    "django_htmx",
    "simple_history",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
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
]

ROOT_URLCONF = "levee.urls"
WSGI_APPLICATION = "levee.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournaments.links.context",
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
    # psycopg binds parameters on the server and prepares a statement the second time a connection
    # runs it (Django turns preparing off unless prepare_threshold is given): PostgreSQL then skips
    # parsing and planning, about half its CPU per deal entered (docs/performance.md). Turn both off
    # behind a pooler in transaction mode (PgBouncer), which cannot keep prepared statements.
    if env.bool("DATABASE_SERVER_SIDE_BINDING", default=True):
        options = DATABASES["default"].setdefault("OPTIONS", {})
        options["server_side_binding"] = True
        options.setdefault("prepare_threshold", env.int("DATABASE_PREPARE_THRESHOLD", default=2))

# The cache keeps what the public pages render once per published ranking (tournaments.public.published):
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

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

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
STATICFILES_DIRS = [BASE_DIR / "static"]
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
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Levée API",
    "DESCRIPTION": "Tournament desk for French card games: tournaments, deals, rulings, rankings.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
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
# celery beat (``celery -A levee beat``, or ``worker -B`` on a single machine): rankings behind their inputs
# with no refresh waiting are queued again, whatever lost their message
CELERY_BEAT_SCHEDULE = {
    "ranking-requeue-stale": {"task": "tournaments.ranking_requeue_stale", "schedule": 60.0},
}
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="WARNING")},
}
