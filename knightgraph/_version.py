"""The version of knightgraph (read by the build, ``--version`` and the package)."""

__version__ = "0.1.0"
