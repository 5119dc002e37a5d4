# Runs in one bot's network namespace (nsenter's --net), outside its pid and mount namespaces, so
# the bot can neither see nor trace it. First it listens on the ports the bot may call (the game
# server's, an LLM proxy's) on that namespace's loopback and hands each listening socket to the
# orchestrator, which accepts the bot's calls itself; then, on each request from the orchestrator,
# it connects to the bot's port and hands the connected socket over. No relay process sits in the
# path of a move or of a call.
#   python3 -I -S -c "$(cat port-broker.py)" port-broker.py <bot port> [<port the bot may call> ...]
# The source comes on the command line: as nobody the broker may not read a checkout under a
# private folder (/root, a mktemp -d); the second word names it in ps.
# spawned by sandbox/port-dialer.ts with Node's IPC channel (NODE_CHANNEL_FD): messages are JSON
# lines, and a socket travels as SCM_RIGHTS beside a {"cmd": "NODE_HANDLE", "type", "msg"} line,
# which Node turns into a net.Socket or net.Server (tests/sandbox-isolated.test.ts holds it to that).
# Python, not Node: a bot start pays this process's start-up, a third of Node's, and its memory for
# as long as the bot runs, a fifth.
import errno
import json
import os
import socket
import sys

channel = socket.socket(fileno=int(os.environ["NODE_CHANNEL_FD"]))
port, *calls = [int(a) for a in sys.argv[2:]]


def say(message):
    channel.sendall(json.dumps(message).encode() + b"\n")


def hand_over(message, sock, kind):
    """Sends `sock` with `message` as Node's IPC does (type net.Socket or net.Server); our copy is closed."""
    line = json.dumps({"cmd": "NODE_HANDLE", "type": kind, "msg": message}).encode() + b"\n"
    channel.sendmsg([line], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, sock.fileno().to_bytes(4, sys.byteorder))])
    sock.close()


def code_of(err):
    if isinstance(err, socket.timeout):
        return "ETIMEDOUT"
    return errno.errorcode.get(err.errno or 0, "ECONNECT")


for p in calls:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", p))
        listener.listen(511)
    except OSError as err:
        listener.close()
        say({"listen": p, "ok": False, "code": code_of(err)})
        continue
    hand_over({"listen": p, "ok": True}, listener, "net.Server")
say({"ready": True})

pending = b""
while True:
    data = channel.recv(65536)
    if not data:
        break  # the orchestrator is gone (or closed the channel): nothing left to serve
    pending += data
    *lines, pending = pending.split(b"\n")
    for line in lines:
        request = json.loads(line)
        if not isinstance(request, dict) or not isinstance(request.get("id"), int):
            continue  # Node's acknowledgements of the handles we sent
        try:
            bot = socket.create_connection(("127.0.0.1", port), timeout=5)
        except OSError as err:
            say({"id": request["id"], "ok": False, "code": code_of(err)})
            continue
        bot.settimeout(None)
        hand_over({"id": request["id"], "ok": True}, bot, "net.Socket")
