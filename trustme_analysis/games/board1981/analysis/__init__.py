"""What reads the Trust Me (1981) engine from outside: records, statistics, report pages, solved strategies, their
descriptions and the narration."""
