"""Tournament URLs."""

from django.http import HttpResponse
from django.urls import path


def home(request):
    return HttpResponse("Levée")


urlpatterns = [path("", home, name="home")]
