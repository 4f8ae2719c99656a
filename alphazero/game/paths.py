"""Where each game keeps its files: the book's ./model and ./data for tic-tac-toe, runs/NAME/ for the
others, and the shipped models under pretrained/NAME/."""
import os
import sys

from alphazero import REPO
from alphazero.game.registry import DEFAULT_GAME


def run_dir(game):
    """The book's game (tic-tac-toe) keeps the book's ./model and ./data; every other game runs/NAME/."""
    return '' if game.NAME == DEFAULT_GAME else os.path.join('runs', game.NAME)


def model_dir(game):
    return os.path.join(run_dir(game), 'model')


def data_dir(game):
    return os.path.join(run_dir(game), 'data')


def model_path(game, name):
    """Path of a model file, for example model_path(game, 'best.h5')."""
    return os.path.join(model_dir(game), name)


# Trained models shipped with the code, one folder per game; training never writes there
PRETRAINED_DIR = os.path.join(REPO, 'pretrained')


def pretrained_path(game, name):
    """Path of a shipped model file, for example pretrained/othello8/best.h5."""
    return os.path.join(PRETRAINED_DIR, game.NAME, name)


def playing_model_path(game, name='best.h5', lang='en'):
    """The model to play with: the game's own trained one, else the shipped one (said in one line,
    in English or, with lang 'ja', in Japanese)."""
    own, shipped = model_path(game, name), pretrained_path(game, name)
    if not os.path.exists(own) and os.path.exists(shipped):
        shown = os.path.relpath(shipped) if not os.path.relpath(shipped).startswith('..') else shipped
        print(f'自分のモデル {own} がないので、同梱の {shown} で対局します' if lang == 'ja' else
              f'no model of your own at {own}: playing the shipped {shown}', file=sys.stderr)
        return shipped
    return own
