"""What tournaments know about people: a player's boards and results, the tournaments of "my page",
per-tournament roles of accounts, and the receivers of the member register's signals
(:mod:`federation.signals`)."""
