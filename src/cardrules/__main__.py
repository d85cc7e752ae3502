"""``python -m cardrules``: the same as the ``cardrules`` command."""

from cardrules.cli import run

run()
