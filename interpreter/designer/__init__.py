"""Tools for designers: scenario files, coverage, invariants, reading action texts."""
