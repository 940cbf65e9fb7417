"""Drives `earshot mcp` with the official MCP Python SDK (`mcp` from PyPI), as a coding agent
does: two agents spawn their own `earshot mcp` against the live daemon on the tests' private
PulseAudio. Prints one line per check and "all checks passed"; exits 1 at the first failure.

usage: check_mcp_peer.py EARSHOT SOCKET FIXTURE_WAV EXPECTED_WORD
(the daemon listens on SOCKET with a transcriber and a voice; PULSE_SERVER names its sound
server, whose sink "micfeed" is the daemon's microphone)
       check_mcp_peer.py EARSHOT SOCKET --no-sound-server
(the daemon on SOCKET has no sound server: converse must fail in words)
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

MESSAGE = "Which file should I open next? Tell me after the tone."


def check(name, condition, detail=""):
    if not condition:
        print("FAILED: %s %s" % (name, detail), flush=True)
        sys.exit(1)
    print("ok: %s" % name, flush=True)


def text_of(result):
    return " ".join(item.text for item in result.content if item.type == "text")


class DaemonWatch:
    """A plain subscriber on the daemon's socket: what the speaker and the voice UI do, and the
    person's buttons (turn commands)."""

    def __init__(self, socket_path):
        self.socket_path = socket_path

    async def __aenter__(self):
        self.reader, self.writer = await asyncio.open_unix_connection(self.socket_path)
        self.writer.write(b'{"id":1,"cmd":"subscribe","topics":["speaker","state"]}\n')
        await self.writer.drain()
        return self

    async def __aexit__(self, *exc):
        self.writer.close()

    async def command(self, name):
        """Sends a turn command as the person's buttons do; its answer is skipped by event()."""
        self.writer.write(json.dumps({"id": name, "cmd": name}).encode() + b"\n")
        await self.writer.drain()

    async def drain(self):
        """Forgets the events of what went before."""
        while True:
            try:
                await asyncio.wait_for(self.reader.readline(), 0.2)
            except asyncio.TimeoutError:
                return

    async def speaker(self, phase):
        return await self.event("speaker", "phase", phase)

    async def state(self, name):
        return await self.event("state", "state", name)

    async def event(self, kind, key, value):
        while True:
            line = await asyncio.wait_for(self.reader.readline(), 60)
            if not line:
                raise RuntimeError("the daemon closed the socket")
            message = json.loads(line)
            if message.get("event") == kind and message.get(key) == value:
                return message


def agent(earshot, socket_path):
    return stdio_client(StdioServerParameters(command=earshot, args=["mcp", "--socket", socket_path]))


async def conversation(earshot, socket_path, fixture, word):
    async with agent(earshot, socket_path) as (read_a, write_a), ClientSession(read_a, write_a) as first, \
            agent(earshot, socket_path) as (read_b, write_b), ClientSession(read_b, write_b) as second, \
            DaemonWatch(socket_path) as watch:
        init = await first.initialize()
        check("initialize names the server", init.serverInfo.name == "earshot", repr(init.serverInfo))
        await second.initialize()
        tools = {tool.name: tool for tool in (await first.list_tools()).tools}
        check("tools listed", sorted(tools) == ["converse", "listen", "speak", "status"], repr(sorted(tools)))
        properties = tools["converse"].inputSchema.get("properties", {})
        check("converse takes its arguments",
              sorted(properties) == ["listen_timeout", "message", "voice", "wait_for_response"], repr(sorted(properties)))

        status = await first.call_tool("status", {})
        check("status", not status.isError and "listening" in text_of(status), text_of(status))

        # The first agent converses; while its message plays, the second is told it is busy.
        call = asyncio.ensure_future(first.call_tool("converse", {"message": MESSAGE, "listen_timeout": 20}))
        await watch.speaker("start")
        busy = await second.call_tool("converse", {"message": "I want to talk too."})
        check("a second agent is busy", busy.isError and text_of(busy).startswith("Busy:"), text_of(busy))
        await watch.speaker("end")
        player = await asyncio.create_subprocess_exec("paplay", "-d", "micfeed", fixture)
        await player.wait()
        result = await asyncio.wait_for(call, 60)
        answer = text_of(result)
        check("converse returns the transcript", not result.isError and word in answer, answer)
        print("converse: %s" % answer, flush=True)

        # With the first agent done, the second may talk; nobody answers, so its listening times out.
        silence = await second.call_tool("converse", {"message": "Anyone there?", "listen_timeout": 2})
        check("silence times out as a tool error",
              silence.isError and text_of(silence).startswith("No speech was heard within 2 s"), text_of(silence))

        # The person stops a message (the stop button), then dismisses voice mode during the next.
        long = "This is a long message. " * 6
        await watch.drain()
        stopped = asyncio.ensure_future(first.call_tool("speak", {"message": long}))
        await watch.state("speaking")
        await watch.command("stop")
        result = await asyncio.wait_for(stopped, 30)
        check("a stopped message is reported with the words said",
              not result.isError and text_of(result).startswith("The person stopped the message after: \u201cThis is a long message."),
              text_of(result))
        await watch.drain()
        dismissed = asyncio.ensure_future(first.call_tool("converse", {"message": long}))
        await watch.state("speaking")
        await watch.command("dismiss")
        result = await asyncio.wait_for(dismissed, 30)
        check("dismissing is reported, not an error",
              not result.isError and text_of(result).startswith("The person dismissed the conversation after:"), text_of(result))

        bad = await first.call_tool("converse", {"message": "", "listen_timeout": 5})
        check("a bad argument is a tool error in words", bad.isError and "message" in text_of(bad), text_of(bad))


async def no_sound_server(earshot, socket_path):
    async with agent(earshot, socket_path) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        result = await session.call_tool("converse", {"message": "Hello?"})
        check("no microphone is a tool error in words",
              result.isError and text_of(result).startswith("No microphone or speaker"), text_of(result))


async def daemon_gone(earshot, socket_path):
    async with agent(earshot, socket_path) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        result = await session.call_tool("converse", {"message": "Hello?"})
        check("no daemon is a tool error in words",
              result.isError and "The Earshot daemon is not running" in text_of(result), text_of(result))


def main():
    if sys.argv[3:] == ["--no-sound-server"]:
        asyncio.run(no_sound_server(*sys.argv[1:3]))
        print("all checks passed", flush=True)
        return
    earshot, socket_path, fixture, word = sys.argv[1:5]
    asyncio.run(conversation(earshot, socket_path, fixture, word))
    asyncio.run(daemon_gone(earshot, socket_path + ".gone"))
    print("all checks passed", flush=True)


if __name__ == "__main__":
    main()
