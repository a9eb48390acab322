"""Experiments: batch self-play, matchbox trainings, tournaments, grading, plots."""
