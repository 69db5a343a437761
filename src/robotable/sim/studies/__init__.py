"""The lab's studies, each with its command options, its summary and its text and HTML sections,
beside the generic runner (sim/runner.py): `simulate` (the command), `seats` (seats and first
mover), `cards` (stratified and restricted play), `depth`, `ladder`, `tuning` and `balance` (the
fairness pass).
"""
