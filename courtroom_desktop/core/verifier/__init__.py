"""The bundled claim verifier (scorer.py): supports / refutes / neither for a claim and a passage."""
