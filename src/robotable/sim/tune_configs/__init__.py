"""The bundled `robotable tune --config NAME` files (NAME.toml here); docs/balancing.md, "Tuning"."""
