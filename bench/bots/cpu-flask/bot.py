# A deterministic, CPU-bound Gomoku bot for the concurrency bench (bench/concurrency.ts): Flask,
# CATArena's protocol, no game-server calls. Every move scores each empty cell near the stones by
# the lines it makes for both sides (pure Python), then spends a fixed amount of extra work
# (BENCH_WORK iterations, default 60000) so that a move costs about the same CPU whatever the
# position. Same position, same move: every game between two of these bots is the same game.
import os
import sys

from flask import Flask, jsonify, request

app = Flask(__name__)
WORK = int(os.environ.get("BENCH_WORK", "60000"))
DIRS = ((0, 1), (1, 0), (1, 1), (1, -1))


def run_length(board, n, i, j, di, dj, who):
    count = 0
    i, j = i + di, j + dj
    while 0 <= i < n and 0 <= j < n and board[i][j] == who:
        count += 1
        i, j = i + di, j + dj
    return count


def score_cell(board, n, i, j, me, them):
    total = 0
    for di, dj in DIRS:
        mine = run_length(board, n, i, j, di, dj, me) + run_length(board, n, i, j, -di, -dj, me)
        theirs = run_length(board, n, i, j, di, dj, them) + run_length(board, n, i, j, -di, -dj, them)
        total += (10 ** min(mine, 4)) * 2 + 10 ** min(theirs, 4)
    return total


def burn(seed):
    # Fixed work: a small LCG, so the interpreter cannot skip it.
    x = seed
    for _ in range(WORK):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
    return x


def choose(board, me):
    n = len(board)
    them = 3 - me
    stones = [(i, j) for i in range(n) for j in range(n) if board[i][j]]
    if not stones:
        return [n // 2, n // 2]
    best, best_key = None, None
    for i in range(n):
        for j in range(n):
            if board[i][j]:
                continue
            if not any(abs(i - a) <= 2 and abs(j - b) <= 2 for a, b in stones):
                continue
            s = score_cell(board, n, i, j, me, them)
            key = (s, -abs(i - n // 2) - abs(j - n // 2), -i, -j)
            if best_key is None or key > best_key:
                best, best_key = [i, j], key
    burn(len(stones))
    return best


@app.route("/health", methods=["GET"])
def health():
    return jsonify({"status": "healthy"})


@app.route("/join_game", methods=["POST"])
def join_game():
    data = request.get_json()
    return jsonify({"status": "joined", "game_id": data.get("game_id"), "my_color": data.get("my_color")})


@app.route("/get_move", methods=["POST"])
def get_move():
    data = request.get_json()
    me = 1 if data["current_player"] == "black" else 2
    return jsonify({"move": choose(data["board"], me), "game_id": data.get("game_id")})


@app.route("/leave_game", methods=["POST"])
def leave_game():
    return jsonify({"status": "left"})


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=int(sys.argv[1]), debug=False)
