"""Trains the ml task track's Gomoku reference model with scikit-learn on self-play data.

Self-play: two copies of a noisy line-scoring policy play on a 15x15 board; every move is kept
with its features (features.py) and labelled 1 if the player who made it won the game, 0 if it
lost (draws are dropped). A logistic regression learns P(win | move features); bot.py plays the
candidate with the highest probability. Everything stops at the budget: --budget-s seconds of
self-play (default 20) or --max-games games (default 400), whichever comes first.

  python3 train.py [--budget-s 20] [--max-games 400] [--seed 1] [--out model.pkl]
"""
import argparse
import json
import pickle
import random
import sys
import time

import numpy as np
from sklearn.linear_model import LogisticRegression

from features import N_FEATURES, candidates, five, move_features

SIZE = 15
# A hand-made line score for the self-play policy: own runs, then blocked opponent runs.
HAND_WEIGHTS = np.zeros(N_FEATURES)
for k, scale in ((0, 1.1), (1, 1.0)):
    for length in range(1, 6):
        for open_ends in range(3):
            HAND_WEIGHTS[k * 15 + (length - 1) * 3 + open_ends] = scale * (10 ** length if length == 5 else (4 ** length) * (open_ends + 0.5))


def self_play_game(rng, epsilon):
    board = [[0] * SIZE for _ in range(SIZE)]
    moves = []  # (features, player)
    player = 1
    for _ in range(SIZE * SIZE):
        cells = candidates(board)
        if not cells:
            return moves, 0
        feats = [move_features(board, i, j, player) for i, j in cells]
        if rng.random() < epsilon:
            k = rng.randrange(len(cells))
        else:
            scores = np.array(feats) @ HAND_WEIGHTS
            k = int(np.argmax(scores + np.array([rng.random() for _ in cells])))
        i, j = cells[k]
        moves.append((feats[k], player))
        won = five(board, i, j, player)
        board[i][j] = player
        if won:
            return moves, player
        player = 3 - player
    return moves, 0


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument('--budget-s', type=float, default=20.0)
    ap.add_argument('--max-games', type=int, default=400)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--out', default='model.pkl')
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    t0 = time.time()
    X, y, games, decided = [], [], 0, 0
    while games < args.max_games and time.time() - t0 < args.budget_s:
        moves, winner = self_play_game(rng, epsilon=0.15)
        games += 1
        if not winner:
            continue
        decided += 1
        for feats, player in moves:
            X.append(feats)
            y.append(1 if player == winner else 0)
    play_s = time.time() - t0
    if len(set(y)) < 2:
        print(f'train: only {games} self-play games in {play_s:.1f}s, not enough to train', file=sys.stderr)
        return 1
    model = LogisticRegression(max_iter=1000)
    model.fit(np.array(X), np.array(y))
    with open(args.out, 'wb') as f:
        pickle.dump({'model': model, 'n_features': N_FEATURES}, f)
    summary = {'games': games, 'decided': decided, 'samples': len(y), 'self_play_s': round(play_s, 1),
               'train_s': round(time.time() - t0 - play_s, 2), 'accuracy_on_training_data': round(float(model.score(np.array(X), np.array(y))), 3),
               'budget_s': args.budget_s, 'max_games': args.max_games, 'seed': args.seed}
    with open('training.json', 'w') as f:
        json.dump(summary, f, indent=2)
    print(f'train: {json.dumps(summary)}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
