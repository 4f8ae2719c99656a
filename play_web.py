# ====================
# Play in a browser
# ====================
# Serves web/ on 127.0.0.1: the page loads the game's exported model with onnxruntime-web (from the
# npm package that setup.sh installs, not from a CDN) and searches with PV-MCTS in JavaScript.
# A missing or unusable model is reported here and on the page.

import argparse
import functools
import http.server
import json
import os
import sys

from alphazero.cli import UserError, run
from alphazero.files import playing_sims
from alphazero.games import add_game_flag, load_game, model_path, parse_game_args, playing_model_path
from alphazero.inference import load_onnx
from pv_mcts import PV_EVALUATE_COUNT

# Parameters
HOST = '127.0.0.1'
PORT = 8000
ROOT = os.path.dirname(os.path.abspath(__file__))
WEB_DIR = os.path.join(ROOT, 'web')
ORT_DIR = os.path.join(ROOT, 'node_modules', 'onnxruntime-web', 'dist')


# What is wrong with the model file for this game, or None when the page can use it
def model_problem(path, game):
    if not os.path.exists(path):
        flag = '' if game.NAME == 'tictactoe' else f' --game {game.NAME}'
        return f'{path} not found: train a model first (python train_cycle.py{flag}).'
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
        from export import ensure_onnx
        ensure_onnx(game)
        return model_path(game, 'best.onnx')
    return playing_model_path(game, 'best.onnx')


class Handler(http.server.SimpleHTTPRequestHandler):
    """web/ at /, onnxruntime-web's files at /ort/, the model at /model.onnx, settings at /config.json."""
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm'}

    def __init__(self, *args, config, model, **kwargs):
        self.config, self.model = config, model
        super().__init__(*args, directory=WEB_DIR, **kwargs)

    def do_GET(self):
        path = self.path.split('?')[0]
        if path == '/config.json':
            return self.send_bytes(json.dumps(self.config).encode(), 'application/json')
        if path == '/model.onnx':
            if self.config['error']:
                return self.send_error(404, self.config['error'])
            with open(self.model, 'rb') as f:
                return self.send_bytes(f.read(), 'application/octet-stream')
        if path.startswith('/ort/'):
            name = os.path.basename(path)
            file = os.path.join(ORT_DIR, name)
            if not os.path.isfile(file):
                return self.send_error(404)
            with open(file, 'rb') as f:
                return self.send_bytes(f.read(), self.guess_type(file))
        return super().do_GET()

    def send_bytes(self, body, content_type):
        self.send_response(200)
        self.send_header('Content-Type', content_type)
        self.send_header('Content-Length', str(len(body)))
        self.send_header('Cache-Control', 'no-store')
        self.end_headers()
        self.wfile.write(body)


def main():
    parser = argparse.ArgumentParser(description='Play the best model in a browser (served on 127.0.0.1).')
    add_game_flag(parser)
    parser.add_argument('--port', type=int, default=PORT, help='port (0: any free port) (default: %(default)s)')
    parser.add_argument('--sims', type=int,
                        help=f'the page\'s starting number of simulations per move (default: what the model records, '
                             f'else {PV_EVALUATE_COUNT})')
    parser.add_argument('--model', help="an .onnx file (default: the game's best.onnx, exported from best.h5 when needed)")
    args = parse_game_args(parser, keep=('sims',))
    if args.sims is not None and args.sims < 1:
        raise UserError('--sims must be at least 1')
    if not 0 <= args.port <= 65535:
        raise UserError(f'--port {args.port} is not a port: give 1 to 65535, or 0 for any free port')
    if not os.path.exists(os.path.join(ORT_DIR, 'ort.wasm.min.mjs')):
        raise UserError(f'{ORT_DIR} is missing: run "bash setup.sh" to install onnxruntime-web from npm.')
    game = load_game(args.game)

    # The model: a problem with it is logged here and shown on the page
    model = model_file(game, args.model)
    error = model_problem(model, game)
    if error:
        print(f'error: {error}', file=sys.stderr)
    sims, why = playing_sims(args.sims, model, PV_EVALUATE_COUNT)
    config = {'game': game.NAME, 'simulations': sims, 'error': error}

    handler = functools.partial(Handler, config=config, model=model)
    try:
        server = http.server.ThreadingHTTPServer((HOST, args.port), handler)
    except OSError as failure:
        raise UserError(f'cannot listen on {HOST}:{args.port} ({failure.strerror}); choose another --port') from None
    print(f'serving {game.NAME} ({model}, {sims} simulations per move: {why}) at http://{HOST}:{server.server_port}/ - Ctrl-C to stop', flush=True)
    with server:
        server.serve_forever()


if __name__ == '__main__':
    run(main)
