"""The ``trustme_liar`` players: the heuristic bot and its policy, the bot registration, the search player's belief and search actions."""
