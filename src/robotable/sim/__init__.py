"""Many games at once: runner, statistics, reports."""
