"""Evaluation harnesses: retrieval over BEIR-layout data sets (and, later, verdicts)."""
