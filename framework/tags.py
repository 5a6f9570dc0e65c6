"""The four tags of the Lab09 chat protocol; students import them from here."""

SYSTEM_TAG = "<|system|>"
USER_TAG = "<|user|>"
ASSISTANT_TAG = "<|assistant|>"
END_TAG = "<|end|>"

ALL_TAGS = {"SYSTEM_TAG": SYSTEM_TAG, "USER_TAG": USER_TAG, "ASSISTANT_TAG": ASSISTANT_TAG, "END_TAG": END_TAG}
