"""What a class run writes: records, grades.csv/json, feedback, report.html, gradebooks, regrades; all or none."""
