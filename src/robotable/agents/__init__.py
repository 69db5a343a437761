"""Agents that play any game through the protocol alone."""
