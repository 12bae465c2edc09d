"""Errors the command line reports in words, without a traceback."""


class CliError(Exception):
    """A command-line mistake, already in words (from the catalog): printed on stderr."""
