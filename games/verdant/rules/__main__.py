"""``python -m games.verdant.rules``: the command line (see ``cli.py``)."""

from .cli import main

raise SystemExit(main())
