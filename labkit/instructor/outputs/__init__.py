"""What a class run writes, one module per output, listed once in registry.py: grades.csv/json, feedback, report.html,
gradebooks, Gradescope's results.json, the terminal summary; records spooled to disk, written all or none, regrades."""
