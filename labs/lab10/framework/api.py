"""Lab10's constants of the OpenAI-compatible chat API; students import them from here (TASK.md 1.5.1)."""

ROLES = ["system", "user", "assistant"]  # the roles a message may have (Lab09's three tags)
DEFAULT_MAX_TOKENS = 64  # max_tokens when a request does not give it (or gives null)
MAX_TOKENS_LIMIT = 512  # the largest max_tokens this server accepts
COMPLETION_OBJECT = "chat.completion"  # "object" of a whole response
CHUNK_OBJECT = "chat.completion.chunk"  # "object" of each streamed chunk
DONE_EVENT = "data: [DONE]\n\n"  # the stream's last event
CLIENT_ERROR = "invalid_request_error"  # the error "type" of a 4xx response
SERVER_ERROR = "server_error"  # the error "type" of a 5xx response
