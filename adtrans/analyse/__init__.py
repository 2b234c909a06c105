"""Stage 3 (analyse): types of every name, activity, and what the reverse sweep needs."""
