"""Public pages (no login) and exports: ranking, round results, players, hall screen, CSV and print."""
