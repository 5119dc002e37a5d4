"""Gomoku reference bot of the ml task track: plays the candidate move a scikit-learn model
(trained by train.py on self-play, saved in model.pkl) rates most likely to win. It takes a
winning move and blocks an opponent's five outright; every other choice is the model's.

  python3 bot.py <port>
"""
import json
import pickle
import sys
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np

from features import candidates, five, move_features

NAME = 'ml-logreg'
with open('model.pkl', 'rb') as f:
    MODEL = pickle.load(f)['model']
FORBIDDEN = {}  # game_id -> set of forbidden cells (variant rules)


class BadRequest(Exception):
    pass


def fetch_forbidden(server, game_id):
    if not server or not game_id:
        return set()
    try:
        with urllib.request.urlopen(f"{server.rstrip('/')}/games/{game_id}/forbidden_points", timeout=3) as res:
            return {tuple(p) for p in json.load(res).get('forbidden_points', [])}
    except Exception:
        return set()  # standard rules answer 404: nothing is forbidden


def join(body):
    game_id, colour = body.get('game_id'), body.get('my_color')
    if not isinstance(game_id, str) or colour not in ('black', 'white'):
        raise BadRequest('game_id and my_color (black or white) required')
    points = body.get('forbidden_points')
    if points is not None:
        FORBIDDEN[game_id] = {tuple(p) for p in points}
    elif body.get('rules') != 'standard':
        FORBIDDEN[game_id] = fetch_forbidden(body.get('game_server_url'), game_id)
    return {'status': 'joined', 'ai_id': NAME, 'game_id': game_id, 'my_color': colour}


def get_move(body):
    board = body.get('board')
    if not isinstance(board, list) or not 5 <= len(board) <= 25 or any(not isinstance(r, list) or len(r) != len(board) for r in board):
        raise BadRequest('board must be N x N')
    player = 2 if body.get('current_player') == 'white' else 1
    banned = FORBIDDEN.get(body.get('game_id'), set())
    cells = candidates(board, banned)
    if not cells:
        raise BadRequest('no legal move')
    reason = 'model'
    pick = next((c for c in cells if five(board, c[0], c[1], player)), None)
    if pick:
        reason = 'wins'
    else:
        pick = next((c for c in cells if five(board, c[0], c[1], 3 - player)), None)
        reason = 'blocks five' if pick else reason
    if not pick:
        p = MODEL.predict_proba(np.array([move_features(board, i, j, player) for i, j in cells]))[:, 1]
        pick = cells[int(np.argmax(p))]
        reason = f'model: P(win) {p.max():.3f}'
    return {'move': list(pick), 'ai_id': NAME, 'game_id': body.get('game_id'), 'reasoning': reason}


ROUTES = {
    ('GET', '/health'): lambda _: {'status': 'healthy'},
    ('GET', '/info'): lambda _: {'name': NAME, 'ai_id': NAME, 'version': '1.0', 'description': 'logistic regression trained on self-play'},
    ('POST', '/join_game'): join,
    ('POST', '/get_move'): get_move,
    ('POST', '/leave_game'): lambda b: (FORBIDDEN.pop(b.get('game_id'), None), {'status': 'left'})[1],
}


class Handler(BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def answer(self, method):
        route = ROUTES.get((method, self.path.split('?')[0]))
        length = int(self.headers.get('Content-Length') or 0)
        raw = self.rfile.read(length) if length else b''
        code, reply = 200, None
        if not route:
            code, reply = 404, {'error': 'Endpoint not found'}
        else:
            try:
                body = json.loads(raw or b'{}') if method == 'POST' else {}
                reply = route(body if isinstance(body, dict) else {})
            except (BadRequest, ValueError) as e:
                code, reply = 400, {'error': str(e)}
            except Exception as e:  # a bug in one request must not take the bot down
                print(f'error: {e!r}', file=sys.stderr, flush=True)
                code, reply = 500, {'error': str(e)}
        data = json.dumps(reply).encode()
        self.send_response(code)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.answer('GET')

    def do_POST(self):
        self.answer('POST')

    def log_message(self, *args):
        pass


if __name__ == '__main__':
    if len(sys.argv) != 2 or not sys.argv[1].isdigit():
        print('usage: python3 bot.py <port>', file=sys.stderr)
        sys.exit(2)
    port = int(sys.argv[1])
    print(f'{NAME} listening on {port}', flush=True)
    ThreadingHTTPServer(('0.0.0.0', port), Handler).serve_forever()
