"""URL configuration: pages by audience, the REST API and its schema."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("tournaments.urls")),
]
