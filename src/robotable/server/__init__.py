"""The web table: `robotable serve` (lobby, play pages, websocket API, SQLite persistence)."""
