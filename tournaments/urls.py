"""Tournament URLs, one module per audience: the organizer's pages, the arbiters' desk and the tables' links, the
public pages and exports, and the REST API under api/."""

from django.contrib.auth import views as auth_views
from django.urls import include, path

urlpatterns = [
    # the public pages first: every phone's refresh is one of them, and Django tries the patterns in order (the
    # organizer's and the desk's 78 cost a public request ~0.13 ms of CPU before it was found). No path of one
    # audience matches a pattern of another (tests/test_url_order.py)
    path("", include("tournaments.public.urls")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", include("tournaments.organizer.urls")),
    path("", include("tournaments.desk.urls")),
    path("api/", include("tournaments.api.urls")),
]
