"""Lab09 · 多轮对话, the lab's own code and data: its case table, drawn inputs and property checks, and the chat."""
