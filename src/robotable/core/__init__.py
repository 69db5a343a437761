"""The protocol, randomness, registry, records and content loading shared by every game."""
