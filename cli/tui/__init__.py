"""The full-screen interface, built on Textual (installed with the ``tui`` extra)."""
