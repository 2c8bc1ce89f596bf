"""The memory inspector: a small web page over the data root (see app.py, __main__.py)."""
