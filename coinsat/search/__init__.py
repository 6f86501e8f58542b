"""Search engines and the solve driver."""
