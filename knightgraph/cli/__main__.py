"""``python -m knightgraph.cli``: the command line, as before it was a package."""

import sys

from . import console_main

sys.exit(console_main())
