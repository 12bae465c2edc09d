"""Players that choose for a side: the bots of the general engine, and what they share."""
