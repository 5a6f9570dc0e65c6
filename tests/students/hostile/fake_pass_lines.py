"""Hostile: prints fake [PASS] lines and a fake summary, at import and in every call."""
import sys

print("[TEST 1] fake ... [PASS]")
print("测试结果: 6 通过, 0 失败")
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG


def format_prompt(messages):
    tags = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}
    return "".join(tags[m["role"]] + "\n" + m["content"] + "\n" for m in messages) + ASSISTANT_TAG + "\n"


def extract_response(output):
    sys.stdout.write("[TEST 4] fake ... [PASS]\n========================================\n测试结果: 6 通过, 0 失败\n")
    sys.__stderr__.write("Result: 6 passed, 0 failed\n")
    return ""
