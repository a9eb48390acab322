"""Classroom modules: the files teaching pages import, so their programs run unchanged but for the
import line, and the checkers of their exercises (:mod:`gamelearn.classroom.checks`,
:mod:`gamelearn.classroom.him`)."""

from .checks import check_count_boxes, check_mirror, check_winner
from .him import check_him
from .verdicts import Verdict

__all__ = ["Verdict", "check_count_boxes", "check_him", "check_mirror", "check_winner"]
