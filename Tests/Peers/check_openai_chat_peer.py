"""Checks the test peer openai_chat_server.py with the official `openai` Python client: the chat
stream shapes Earshot's tests rely on are the ones OpenAI's own client reads. Prints one line per
check and "all checks passed"; exits 1 at the first failure.

usage: check_openai_chat_peer.py BASE_URL API_KEY
(the server must require API_KEY, rate-limit exactly its first request with Retry-After, and
answer with its default reply, "You said: {question}")
"""

import sys

import openai


def check(name, condition, detail=""):
    if not condition:
        print("FAILED: %s %s" % (name, detail), flush=True)
        sys.exit(1)
    print("ok: %s" % name, flush=True)


def main():
    base_url, key = sys.argv[1:3]
    client = openai.OpenAI(base_url=base_url, api_key=key, max_retries=0, timeout=30)
    question = [{"role": "user", "content": "what time is it"}]

    try:
        client.chat.completions.create(model="gpt-4o-mini", messages=question)
        check("429 raises RateLimitError", False, "the request succeeded")
    except openai.RateLimitError as error:
        check("429 raises RateLimitError", error.status_code == 429)
        check("429 carries Retry-After", error.response.headers.get("retry-after") is not None)

    wrong = openai.OpenAI(base_url=base_url, api_key="not-the-key", max_retries=0)
    try:
        wrong.chat.completions.create(model="gpt-4o-mini", messages=question)
        check("a wrong key raises AuthenticationError", False, "the request succeeded")
    except openai.AuthenticationError as error:
        check("a wrong key raises AuthenticationError", error.status_code == 401)

    try:
        client.chat.completions.create(model="no-such-model", messages=question)
        check("an unknown model raises NotFoundError", False, "the request succeeded")
    except openai.NotFoundError as error:
        check("an unknown model raises NotFoundError", error.status_code == 404 and "no-such-model" in str(error))

    models = [model.id for model in client.models.list()]
    check("models list", "gpt-4o-mini" in models, str(models))

    completion = client.chat.completions.create(model="gpt-4o-mini", messages=question)
    check("completion (json)", completion.choices[0].message.content == "You said: what time is it",
          repr(completion.choices[0].message.content))

    chunks = list(client.chat.completions.create(model="gpt-4o-mini", messages=question, stream=True))
    check("stream: chunks are chat.completion.chunk", all(chunk.object == "chat.completion.chunk" for chunk in chunks))
    check("stream: the first names the role", chunks[0].choices[0].delta.role == "assistant")
    content = "".join(chunk.choices[0].delta.content or "" for chunk in chunks)
    check("stream: deltas add up to the reply", content == "You said: what time is it", repr(content))
    check("stream: more than one delta", sum(1 for chunk in chunks if chunk.choices[0].delta.content) > 1)
    check("stream: the last says finish_reason stop", chunks[-1].choices[0].finish_reason == "stop")
    print("all checks passed", flush=True)


if __name__ == "__main__":
    main()
