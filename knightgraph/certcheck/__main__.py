"""``python -m knightgraph.certcheck [FILE]``: re-check the answers in FILE (or stdin)."""

import sys

from .answers import main

sys.exit(main())
