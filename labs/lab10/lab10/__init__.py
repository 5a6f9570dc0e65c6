"""Lab10 · HTTP 服务, the lab's own code and data: its case table, drawn inputs, detectors, texts and make serve."""
