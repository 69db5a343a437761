from __future__ import annotations

import os
import sys

from hypothesis import settings

sys.path.insert(0, os.path.dirname(__file__))

import toygame  # noqa: E402,F401  (registers the 'countdown' test game)

settings.register_profile("default", deadline=None, max_examples=25)
settings.register_profile("ci", deadline=None, max_examples=25, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")
