"""The general engine: a game's state compiled from its schema, and rules run against it."""
