"""Shared pytest configuration: hypothesis profiles.

The ``ci`` profile (chosen when the ``CI`` environment variable is set, as
``.ci/run`` does) is derandomized and has no deadline, so CI never flakes on
timing or on a newly found example; ``dev`` explores with fresh randomness.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, deadline=None, max_examples=100,
    suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.register_profile("dev", deadline=None, max_examples=100)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
