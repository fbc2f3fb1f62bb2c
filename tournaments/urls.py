"""Tournament URLs, one module per audience: the organizer's pages, the arbiters' desk and the tables' links, the
public pages and exports, and the REST API under api/."""

from django.contrib.auth import views as auth_views
from django.urls import include, path

urlpatterns = [
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", include("tournaments.organizer.urls")),
    path("", include("tournaments.desk.urls")),
    path("api/", include("tournaments.api.urls")),
    path("", include("tournaments.public.urls")),
]
