"""The harness's internals: case table, engine, judge, rendering, texts, and the chat/watch tools (students need not read them)."""
