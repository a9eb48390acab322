"""The store layer: the SQLite database (the embedded default) and the thesis file formats."""
