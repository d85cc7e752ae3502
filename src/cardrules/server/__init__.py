"""A reference game server for every game the registry knows (extra ``cardrules[server]``).

Being built; see issue 17.
"""
