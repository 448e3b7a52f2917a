"""Date formats of the site, one per language (``FORMAT_MODULE_PATH``); everything not set here
(input formats, separators) comes from Django's locale formats. See :mod:`federation.formatting`."""
