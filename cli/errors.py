"""Errors the command line reports in words, without a traceback."""


class CliError(Exception):
    """A command-line mistake, already in words (from the catalog): printed on stderr.

    ``code`` is the exit status: 2 for a mistake in the command itself, 1 when
    a file it names cannot be used (a damaged saved game, say).
    """

    def __init__(self, message: str = "", code: int = 2):
        super().__init__(message)
        self.code = code
