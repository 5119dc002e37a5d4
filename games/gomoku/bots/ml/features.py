"""Features of a Gomoku move, shared by train.py and bot.py (the ml task track's reference bot).

A move (row, col) for player p on a board (0 empty, 1 black, 2 white) is described by the lines
it makes for p and the lines it blocks for the opponent: in each of the 4 directions, the run of
stones through the cell and how many of its two ends are open, counted in buckets (run length
1..5+ x open ends 0..2), plus the distance to the centre. 31 numbers.
"""
import numpy as np

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
N_FEATURES = 2 * 5 * 3 + 1


def run_through(board, i, j, colour, di, dj):
    """Length of colour's run through (i, j) if colour stood there, and its open ends."""
    size = len(board)
    length, open_ends = 1, 0
    for s in (1, -1):
        y, x = i + s * di, j + s * dj
        while 0 <= y < size and 0 <= x < size and board[y][x] == colour:
            length += 1
            y, x = y + s * di, x + s * dj
        if 0 <= y < size and 0 <= x < size and board[y][x] == 0:
            open_ends += 1
    return length, open_ends


def move_features(board, i, j, player):
    f = np.zeros(N_FEATURES)
    for k, colour in enumerate((player, 3 - player)):
        for di, dj in DIRECTIONS:
            length, open_ends = run_through(board, i, j, colour, di, dj)
            f[k * 15 + (min(length, 5) - 1) * 3 + open_ends] += 1
    centre = (len(board) - 1) / 2
    f[-1] = (abs(i - centre) + abs(j - centre)) / len(board)
    return f


def candidates(board, banned=frozenset()):
    """Empty, allowed cells within 2 of a stone (the centre on an empty board)."""
    size = len(board)
    stones = [(i, j) for i in range(size) for j in range(size) if board[i][j]]
    if not stones:
        c = size // 2
        return [(c, c)] if (c, c) not in banned else [(i, j) for i in range(size) for j in range(size) if (i, j) not in banned][:1]
    near = set()
    for i, j in stones:
        for y in range(max(0, i - 2), min(size, i + 3)):
            for x in range(max(0, j - 2), min(size, j + 3)):
                if board[y][x] == 0 and (y, x) not in banned:
                    near.add((y, x))
    if not near:
        near = {(i, j) for i in range(size) for j in range(size) if board[i][j] == 0 and (i, j) not in banned}
    return sorted(near)


def five(board, i, j, colour):
    return any(run_through(board, i, j, colour, di, dj)[0] >= 5 for di, dj in DIRECTIONS)
