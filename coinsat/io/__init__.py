"""File formats: instances (TOML), solutions (JSON), pictures, formula exports."""
