"""The render thread of a process runs only while renders run « in a thread »: a test (or a process) switched to
« manual » keeps its queue for ``run_pending`` — before, a thread left running by an earlier test took the render
of the next one, whose ``pending()`` was then empty (tests/tournaments/seasons: the championship's PDF)."""

from __future__ import annotations

import threading
import time

from tournaments.common import runner


def test_a_thread_started_earlier_does_not_take_a_manual_render(settings):
    ran: list[str] = []
    done = threading.Event()

    def first() -> None:
        ran.append("first")
        done.set()

    settings.LEVEE_RENDER_IN = "thread"
    runner.later(first)
    assert done.wait(10), "the thread did not run the render queued in thread mode"

    settings.LEVEE_RENDER_IN = "manual"
    runner.later(lambda: ran.append("second"))
    time.sleep(0.3)  # time for a live thread to take it, if it would
    assert ran == ["first"]
    assert len(runner.pending()) == 1
    assert runner.run_pending() == 1 and ran == ["first", "second"]
