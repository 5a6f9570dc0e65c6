"""labkit: the lab-independent core of the harness; run/ is the engine that runs a student's file."""
