# ====================
# Play in a browser
# ====================
# Serves web/ on 127.0.0.1: the page loads a game's exported model with onnxruntime-web (from the
# npm package that setup.sh installs, not from a CDN) and searches with PV-MCTS in JavaScript. One
# server serves every game the page knows; the page starts with --game and has a game picker.
# A missing or unusable model is reported here and on the page when its game is picked.

import dataclasses
import functools
import http.server
import json
import os
import re
import sys
import urllib.parse

from alphazero.cli.run import ArgumentParser, run
from alphazero.errors import UserError
from alphazero.network.model_file import playing_sims
from alphazero.game.registry import DEFAULT_GAME, game_flag, load_game
from alphazero.game.paths import model_path, playing_model_path
from alphazero.network.load import load_onnx
from alphazero.play.levels import NEAR, first_play_words, full_strength, handicap_worth, levels_for, measured_first_play
from alphazero.limits import MAX_SIMS, file_path, whole_number
from alphazero.settings import SearchSettings
from alphazero.network.onnx_export import ensure_onnx

# Parameters
HOST = '127.0.0.1'
PORT = 8000
ROOT = os.path.dirname(os.path.abspath(__file__))
WEB_DIR = os.path.join(ROOT, 'web')
ORT_DIR = os.path.join(ROOT, 'node_modules', 'onnxruntime-web', 'dist')


# The games the page plays: those whose rules web/games.js has, the keys of its GAMES table
def page_games():
    with open(os.path.join(WEB_DIR, 'games.js'), encoding='utf-8') as f:
        table = f.read().split('export const GAMES = {', 1)[1].split('};', 1)[0]
    return tuple(sorted(re.findall(r'(?:^|,)\s*([a-z]\w*)\s*(?=[:,]|$)', table.strip())))


PAGE_GAMES = page_games()


# How the page draws a game, from the game itself (alphazero/game/contract.py): its name in each
# language, its colours, its stones or marks, and the pieces of a game whose pieces move
def page_look(game):
    look = {'title': game.TITLE or {'en': game.NAME}, 'board': game.BOARD_COLOR, 'lines': game.LINE_COLOR,
            'stones': list(game.STONE_SHADES or game.STONE_COLORS or []) or None,
            'names': list(game.STONE_COLORS or game.MARKS)}
    if game.PIECE_NAMES:
        look['pieces'] = {piece: {'name': name, 'letter': game.piece_letter(piece), 'steps': game.piece_steps(piece)}
                          for piece, name in game.PIECE_NAMES.items()}
    return look


# What is wrong with the model file for this game, or None when the page can use it
def model_problem(path, game):
    if not os.path.exists(path):
        flag = game_flag(game)
        return f'{path} not found: train a model first (python train_cycle.py{flag}).'
    if os.path.isfile(path) and not path.endswith('.onnx'):
        return f'{path}: the page plays ONNX models; `python export.py {path}` writes one to give with --model.'
    try:
        load_onnx(path, game)
    except UserError as error:
        return str(error)
    return None


# The game's model as ONNX: --model as given, else best.onnx, exported again when best.h5 changed,
# else the shipped model when there is no model of your own
def model_file(game, path):
    if path:
        return path
    if os.path.exists(model_path(game, 'best.h5')):
        ensure_onnx(game)
        return model_path(game, 'best.onnx')
    return playing_model_path(game, 'best.onnx')


# The files the server answers with, by extension; anything else is not served
CONTENT_TYPES = {'.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
                 '.svg': 'image/svg+xml', '.css': 'text/css', '.png': 'image/png', '.wasm': 'application/wasm'}
ORT_TYPES = ('.mjs', '.wasm')  # onnxruntime-web's modules and WebAssembly


def served_file(directory, name, extensions=tuple(CONTENT_TYPES)):
    """The path of `name`, a plain file directly in `directory` (no folder, no link), or None."""
    path = os.path.join(directory, name)
    if '/' in name or name.startswith('.') or not name.endswith(extensions):
        return None
    return path if os.path.isfile(path) and not os.path.islink(path) else None


class Handler(http.server.BaseHTTPRequestHandler):
    """Serves exactly the page: the files at the top of web/ (/ is index.html), onnxruntime-web's
    modules at /ort/, each game's model at /model/NAME.onnx and the settings at /config.json. No
    listings, no links, no folders below web/; a malformed path is a 400; HEAD answers as GET
    without the body."""
    timeout = 60  # seconds a connection may stay silent

    def __init__(self, *args, config, models, **kwargs):
        self.config, self.models = config, models
        super().__init__(*args, **kwargs)

    def do_GET(self):
        self.answer(send_body=True)

    def do_HEAD(self):
        self.answer(send_body=False)

    def answer(self, send_body):
        try:
            status, body, content_type = self.route()
        except OSError as error:  # a file removed or unreadable since the server started
            status, body, content_type = 404, f'cannot read the file ({error.strerror})', None
        if content_type is None:  # an error: its reason in the body, a plain one in the status line
            body, content_type = (body + '\n').encode(), 'text/plain; charset=utf-8'
        try:
            self.send_response(status)
            self.send_header('Content-Type', content_type)
            self.send_header('Content-Length', str(len(body)))
            self.send_header('Cache-Control', 'no-store')
            self.end_headers()
            if send_body:
                self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):  # the browser went away
            pass

    def route(self):
        """(status, body, content type): the content type is None for an error, whose body is text."""
        try:
            path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path, errors='strict')
        except (UnicodeDecodeError, ValueError):
            return 400, 'malformed path', None
        if not path.startswith('/') or any(c < ' ' or c == '\\' for c in path):
            return 400, 'malformed path', None
        if path == '/config.json':
            return 200, json.dumps(self.config).encode(), 'application/json'
        if path.startswith('/model/') and path.endswith('.onnx'):
            name = path[len('/model/'):-len('.onnx')]
            if name not in self.models:
                return 404, 'not found', None
            if self.config['games'][name]['error']:
                return 404, self.config['games'][name]['error'], None
            with open(self.models[name], 'rb') as f:
                return 200, f.read(), 'application/octet-stream'
        if path.startswith('/ort/'):
            file = served_file(ORT_DIR, path[len('/ort/'):], ORT_TYPES)
        else:
            file = served_file(WEB_DIR, path[1:] or 'index.html')
        if file is None:
            return 404, 'not found', None
        with open(file, 'rb') as f:
            return 200, f.read(), CONTENT_TYPES[os.path.splitext(file)[1]]


def parse_args(argv=None):
    parser = ArgumentParser(description='Play the best models in a browser (served on 127.0.0.1), every game '
                                        'the page knows, with a game picker.')
    parser.add_argument('--game', default=DEFAULT_GAME, choices=PAGE_GAMES,
                        help='the game the page starts with (the games the page knows, web/games.js) (default: %(default)s)')
    parser.add_argument('--port', type=whole_number(0, 65535), default=PORT, help='port (0: any free port) (default: %(default)s)')
    parser.add_argument('--sims', type=whole_number(1, MAX_SIMS),
                        help=f'simulations per move of every game\'s standard level, from which the page\'s levels '
                             f'follow (default: what each model records, else {SearchSettings.sims}; the levels of a '
                             'model measured by evaluate_levels.py show their Elo)')
    parser.add_argument('--model', type=file_path, help="an .onnx file for --game (default: each game's best.onnx, exported "
                                                        "from best.h5 when needed, else the shipped one)")
    return parser.parse_args(argv)


def main():
    args = parse_args()
    if not os.path.exists(os.path.join(ORT_DIR, 'ort.wasm.min.mjs')):
        raise UserError(f'{ORT_DIR} is missing: run "bash setup.sh" to install onnxruntime-web from npm.')
    # Each game's model: a problem with one is logged here and shown on the page when it is picked
    config, models = {'game': args.game, 'near': NEAR, 'games': {}}, {}
    for name in PAGE_GAMES:
        game = load_game(name)
        model = models[name] = model_file(game, args.model if name == args.game else None)
        error = model_problem(model, game)
        if error and name == args.game:
            print(f'error: {error}', file=sys.stderr)
        sims, why = playing_sims(args.sims, model)
        levels = levels_for(model, sims)
        config['games'][name] = {'simulations': sims, 'levels': [dataclasses.asdict(level) for level in levels],
                                 'level': full_strength(levels, sims).number, 'firstPlay': measured_first_play(model),
                                 'error': error, 'look': page_look(game),
                                 'handicaps': handicap_worth(model)}
        if name == args.game:
            reduction = first_play_words(config['games'][name]['firstPlay'])
            started = f'{name} ({model}, {sims} simulations per move: {why}{reduction})'

    handler = functools.partial(Handler, config=config, models=models)
    try:
        server = http.server.ThreadingHTTPServer((HOST, args.port), handler)
    except OSError as failure:
        raise UserError(f'cannot listen on {HOST}:{args.port} ({failure.strerror}); choose another --port') from None
    print(f'serving {started} and the other games at http://{HOST}:{server.server_port}/ - Ctrl-C to stop', flush=True)
    with server:
        server.serve_forever()


if __name__ == '__main__':
    run(main)
