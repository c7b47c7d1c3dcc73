"""Running on this machine: time budgets, memory, worker processes, executors, the disk, and
the compiled libraries."""
