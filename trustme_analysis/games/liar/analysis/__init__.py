"""What reads the ``trustme_liar`` engine from outside: records, statistics, report pages, strategy statistics, descriptions of solved policies."""
