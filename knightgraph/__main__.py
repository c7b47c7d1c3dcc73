"""``python -m knightgraph``: the command line."""

import sys

try:
    from .cli import console_main
except KeyboardInterrupt:  # Ctrl-C while the command line itself is imported: one line
    print("knightgraph: interrupted", file=sys.stderr)
    sys.exit(130)

sys.exit(console_main())
