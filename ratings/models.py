"""No tables yet."""
