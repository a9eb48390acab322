"""Classroom modules: the files teaching pages import, so their programs run unchanged but for the
import line, and the checkers of their exercises (:mod:`gamelearn.classroom.checks`)."""

from .checks import Verdict, check_count_boxes, check_him, check_mirror, check_winner

__all__ = ["Verdict", "check_count_boxes", "check_him", "check_mirror", "check_winner"]
