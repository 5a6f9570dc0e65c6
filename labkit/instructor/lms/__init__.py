"""Reading an LMS download: who submitted what, in which layout, with archives read in memory."""
