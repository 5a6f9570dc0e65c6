"""`make chat`: a tiny language model driven by the student's own functions, with its corpus, search and pages."""
