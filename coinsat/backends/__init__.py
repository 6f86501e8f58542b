"""Backends run formulas and answer SAT | UNSAT | UNKNOWN; they know nothing about coins."""
