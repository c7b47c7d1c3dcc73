"""Tours and answers: the verifier, the verified :class:`~knightgraph.Tour`, the stored block
tours, and the result of a search."""
