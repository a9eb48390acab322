"""Classroom modules: the files teaching pages import, so their programs run unchanged but for the import line."""
