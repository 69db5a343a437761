"""The terminal front end: the games list, play, replay, bench and soak commands."""
