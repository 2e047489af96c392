"""What reads Pinocchio's engine from outside: records, statistics, report pages, solved-strategy statistics, the
descriptions of a solved policy and the narration."""
