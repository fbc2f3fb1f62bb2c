"""The dress rehearsal (issue 20): whole events driven through the service's real HTTP surface, as its users drive
them — the organizer's pages, the arbiters' desk and the tables' links, the chief's queue, the public pages and the
API (``harness.Event``) — with legal deals generated from a seeded random by the rules engine (``deals``), and the
invariants checked after every step (``invariants``: no 5xx on any page of any role, what each role may see, table
sizes among the game's counts, zero-sum Tarot deals, totals = sums of the rows, the published ranking = a recompute).

The events:

* ``test_tarot_individual``: Tarot, 14 players, three rounds (rotation): a garde sans waiting for the chief's visa,
  deals through the desk (card by card and summary), the tables' links and the API; a late arrival from round 2, a
  one-round substitute, a swap, a penalty; a withdrawal before round 3; a round-1 deal corrected after the results
  became official (the public ledger says it). Tarot at 13 and 17 players (tables of 3, 4 and 5, draw by ranking);
  Tarot at 5 with the mort (10 players seated by hand: the mort scores 0); Tarot by teams (16 players, four teams).
* ``test_vingt_quatre``: Le Vingt-quatre « selon le jeu » at every count from 4 to 17 players, Swiss draw, matches
  to their target; at 6, 7 and 11 players (no seating of 4s and 5s) the draw must be refused.
* ``test_ecarte``: L'Écarté, Swiss with byes at tables of 2 (7 players, three rounds), of 3 (7 players: the seats
  that play on after a withdrawal) and of 4 (9 players).
* ``test_duplicate``: duplicate Tarot at 16 and 20 players, the movement and étuis from the setup page, each étui
  played with its own cards, a fouled étui, an artificial result, the travellers public after the release.
* ``test_triomphe``: La Triomphe by teams (12 players, four teams, tables of 2) and individual (9 at tables of 3, 5 at
  tables of 2 with a bye).
* ``test_imperiale``: L'Impériale at 2 and at 3 (7 players: a bye each round).
* ``test_phone_widths``: the one browser test: every HTML page of a finished event, as the organizer and as the
  public, no wider than 390 px in Chromium.
* ``test_screenshots`` (images in ``LEVEE_EVENT_SHOTS``, default ``/tmp/events-shots``): every page
  a finished event visits, the tap page and « Résumé » of every game and the hall screen, shot at 390×844 and 1366×900
  (the hall also at 1920×1080) with a long name in the data, each checked for width, text spilling out, words broken
  in a button, codes and English.
* **Irregular deals** inside the running events (``Event.enter_irregular``, ``rule_irregular``,
  ``withdraw_ruling``, ``irregular_in_match``): a renonce entered through the desk's tap page, a table's link, the
  desk's offline outbox (sent twice: saved once) and the API — refused without « La saisir quand même », saved
  irregular with it, the arbiter called — then the chief's ruling (his page or the API), checked against the hand
  arithmetic of the rule text on the published ranking (Tarot at 3, 4 and 5: as played, the arbiter's marks, annulled;
  duplicate: annulled) or on the match totals (Écarté law 43 let stand, the Triomphe and Impériale penalties, the
  Vingt-quatre's typed jeton), a correction refused while ruled, the ruling withdrawn, the deal corrected.
* ``test_known_defects``: each defect the rehearsal meets, on a minimal event, ``xfail(strict=True)``.
"""
