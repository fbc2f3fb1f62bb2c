"""URL configuration: pages by audience, the REST API and its schema."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("tournaments.urls")),
]

# errors: JSON under /api/, French pages with a way back elsewhere; the database unavailable is a 503 (levee.errors)
handler400 = "levee.errors.bad_request"
handler403 = "levee.errors.permission_denied"
handler404 = "levee.errors.page_not_found"
handler500 = "levee.errors.server_error"
