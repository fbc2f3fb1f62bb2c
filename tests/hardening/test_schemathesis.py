"""A bounded schemathesis run over the OpenAPI schema (issue 11, "How it is checked"): every operation, with an
organizer's and an arbiter's token, never answers a server error (5xx).

Generated requests go to the WSGI application in-process; a few examples per operation keep the run near a
minute (``LEVEE_SCHEMATHESIS_EXAMPLES`` to search longer by hand)."""

from __future__ import annotations

import os

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import not_a_server_error

from tests.tournaments.factories import TableFactory, tarot_summary

EXAMPLES = int(os.environ.get("LEVEE_SCHEMATHESIS_EXAMPLES", "5"))


@pytest.fixture
def api_schema(db):
    """The schema, read from the application; requests call it in-process, inside the test's transaction (as
    Django's test client does, the connection is not closed at each request's end)."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    from levee.wsgi import application

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield schemathesis.openapi.from_wsgi("/api/schema/", application)
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.fixture
def tokens(db, tarot_table, staff):
    """Tokens of the tournament's organizer and of its table arbiter, a saved deal and a second table."""
    from rest_framework.authtoken.models import Token

    from tournaments.deals.record import deal_record

    deal_record(table=tarot_table, record=tarot_summary(), user=staff["arbiter"])
    TableFactory(round=tarot_table.round, number=3)
    return [Token.objects.create(user=staff[who]).key for who in ("organizer", "arbiter")]


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
def test_no_server_error(case, tokens):
    for token in tokens:
        response = case.call(headers={"Authorization": f"Token {token}"})
        case.validate_response(response, checks=[not_a_server_error])
