"""Why a board has no tour: the theorems of existence, forced moves, and the certificates that
the independent checker re-checks."""
