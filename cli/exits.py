"""The command line's exit statuses, in one place (docs/playing.md lists what each means)."""

EXIT_OK = 0  # done as asked
EXIT_FAILED = 1  # the content or a file cannot be used, or something failed: a scenario, a rule broken
EXIT_USAGE = 2  # refused before anything was done: a wrong option, a file that is not a game's
EXIT_STOPPED = 3  # the input ended before the game did (the game is saved)
EXIT_INTERRUPTED = 130  # Ctrl-C: what was done so far is kept (a saved game, a partial report)
