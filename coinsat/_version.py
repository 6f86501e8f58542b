"""The package version (one home: the package root, the CLI and the file writers read it here)."""

__version__ = "0.1.0"
