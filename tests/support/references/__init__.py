"""The independent reference implementations the library is checked against.

Each is written straight from the rules page (``docs/rules.rst``) and shares
no rule code with ``cardrules``:

* :mod:`support.references.down_and_back`: the Down and Back combinations
  (DB-1, DB-2, DB-10 to DB-25), one small function per category, with the
  exact count of every category over all 4-card and 3-card hands;
* :mod:`support.references.back_alley`: a whole game of Back Alley
  (BA-1 to BA-50) on plain strings, without importing ``cardrules`` at all.
"""
