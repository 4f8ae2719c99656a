"""human_play.py's window on a virtual display (Xvfb): it speaks the player's language, a click on a
legal square plays it and the AI answers."""
import os
import shutil
import subprocess
import time

import pytest

from alphazero.settings import SearchSettings
from alphazero.play.agent import Agent
from alphazero.game.registry import load_game
from alphazero.cli.words import words
from conftest import need, tiny_model


@pytest.fixture(scope='module')
def display():
    need(shutil.which('Xvfb'), 'Xvfb', 'apt-get install xvfb')
    # Xvfb picks a free display and writes its number once it accepts clients (tests run in parallel)
    server = subprocess.Popen(['Xvfb', '-displayfd', '1', '-screen', '0', '800x800x24'], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    number = server.stdout.readline().strip()
    assert number.isdigit(), 'Xvfb did not start'
    old = os.environ.get('DISPLAY')
    os.environ['DISPLAY'] = f':{number}'
    yield
    server.terminate()
    if old is None:
        os.environ.pop('DISPLAY')
    else:
        os.environ['DISPLAY'] = old


def window_texts(ui):
    return [ui.canvas.itemcget(item, 'text') for item in ui.canvas.find_all() if ui.canvas.type(item) == 'text']


@pytest.mark.parametrize('lang, first_status, after_status', [
    ('ja', 'あなた: 黒　あなたの番です', 'あなた: 黒　あなたの番です'),
    ('en', 'you: black - your move', 'you: black - your move')])
def test_the_window_speaks_the_players_language_and_plays(display, monkeypatch, lang, first_status, after_status):
    import tkinter as tk
    import human_play
    from alphazero.network.runtimes import KerasNetwork
    game = load_game('othello6')
    ai = human_play.ai_action(Agent(game, KerasNetwork(tiny_model(0, rules=game)), SearchSettings(sims=2)))
    seen = {}

    def open_window(frame):  # the window, driven here instead of by a person
        root = tk.Tk()
        ui = frame(root)
        ui.pack()
        root.update()
        seen['first'] = window_texts(ui)
        square = next(s for s in range(36) if game.square_action(s) in ui.state.legal_actions())
        click = type('Click', (), {'x': (square % 6) * human_play.SQUARE_SIZE + 5, 'y': (square // 6) * human_play.SQUARE_SIZE + 5})
        ui.turn_of_human(click)
        for _ in range(50):  # the AI answers from the event loop
            root.update()
            time.sleep(0.02)
        seen['after'] = window_texts(ui)
        seen['stones'] = sum(1 for cell in ui.state.cells() if cell)
        root.destroy()
    monkeypatch.setattr(human_play, 'open_window', open_window)
    human_play.play_window(game, ai, True, words(lang))
    assert first_status in seen['first']
    assert after_status in seen['after'] and seen['stones'] == 4 + 2  # the human's disc and the AI's
