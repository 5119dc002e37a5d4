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
# as long as the bot runs, a fifth. Only built-in modules (_socket, errno, posix): the socket and
# json modules import enum, re, selectors and more, which cost a start more CPU than Python itself.
import _socket
import errno
import posix
import sys

channel = _socket.socket(fileno=int(posix.environ[b"NODE_CHANNEL_FD"]))
port, *calls = [int(a) for a in sys.argv[2:]]


def say(line):
    """Sends one message, a JSON object written out by hand (its values are ints, booleans and errno names)."""
    channel.sendall(line.encode() + b"\n")


def hand_over(message, sock, kind):
    """Sends `sock` with `message` as Node's IPC does (type net.Socket or net.Server); our copy is closed."""
    line = '{"cmd":"NODE_HANDLE","type":"%s","msg":%s}\n' % (kind, message)
    channel.sendmsg([line.encode()], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, sock.fileno().to_bytes(4, sys.byteorder))])
    sock.close()


def code_of(err):
    if isinstance(err, _socket.timeout):
        return "ETIMEDOUT"
    return errno.errorcode.get(err.errno or 0, "ECONNECT")


def request_id(line):
    """The id of a dial request {"id":N} (Node's JSON.stringify), or None for anything else (Node's acknowledgements)."""
    if not (line.startswith(b'{"id":') and line.endswith(b"}")):
        return None
    digits = line[6:-1]
    return int(digits) if digits.isdigit() else None


for p in calls:
    listener = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
    try:
        listener.setsockopt(_socket.SOL_SOCKET, _socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", p))
        listener.listen(511)
    except OSError as err:
        listener.close()
        say('{"listen":%d,"ok":false,"code":"%s"}' % (p, code_of(err)))
        continue
    hand_over('{"listen":%d,"ok":true}' % p, listener, "net.Server")
say('{"ready":true}')

pending = b""
while True:
    data = channel.recv(65536)
    if not data:
        break  # the orchestrator is gone (or closed the channel): nothing left to serve
    pending += data
    *lines, pending = pending.split(b"\n")
    for line in lines:
        rid = request_id(line)
        if rid is None:
            continue
        bot = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
        bot.settimeout(5)
        try:
            bot.connect(("127.0.0.1", port))
        except OSError as err:
            bot.close()
            say('{"id":%d,"ok":false,"code":"%s"}' % (rid, code_of(err)))
            continue
        bot.settimeout(None)
        hand_over('{"id":%d,"ok":true}' % rid, bot, "net.Socket")
