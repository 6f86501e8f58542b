"""The documentation site's generated pages (``docs_site``), waiting to move to ``lab/`` beside the
other studies: nothing else is left here, and nothing in the package imports it."""
