# ====================
# Play against the AI (the book's human_play.py)
# ====================
# The book's window: click a square to move (in Connect Four, any square of the column); the AI
# answers with its search at temperature 0. A player with no move but a pass (Othello) passes by
# itself. With --text it plays in the terminal instead, for machines without a display.

import argparse
import sys

import numpy as np

from alphazero.batched_mcts import Evaluator
from alphazero.cli import UserError, run
from alphazero.files import playing_sims
from alphazero.games import add_game_flag, load_game, parse_game_args, player_value, playing_model_path
from alphazero.inference import load_network
from alphazero.match import MctsPlayer
from pv_mcts import PV_EVALUATE_COUNT, pv_mcts_action

# Parameters
SQUARE_SIZE = 80        # pixels per square of the window
MARKS = {1: 'o', -1: 'x'}  # the first player's and the second player's stones


# The result line shown when the game is over, from the human's side
def result_text(state, human_first):
    return {1: 'You win', 0: 'Draw', -1: 'You lose'}[player_value(state, human_first)]


# The move the human must make without choosing: the only legal action when no square is
# clickable for it (Othello's pass), else None
def forced_action(state, game):
    rows, columns = game.BOARD_SHAPE
    legal_actions = state.legal_actions()
    clickable = {game.square_action(square) for square in range(rows * columns)}
    return legal_actions[0] if len(legal_actions) == 1 and legal_actions[0] not in clickable else None


# ----- the terminal -----
# True when a move is a whole column (Connect Four), not a square
def moves_are_columns(game):
    rows, columns = game.BOARD_SHAPE
    return len({game.square_action(square) for square in range(rows * columns)}) == columns


# Each empty square shows the number of the move a click there would make, when it is legal; when
# moves are columns, empty squares are dots and the legal columns are numbered below the board
def board_text(state, game):
    rows, columns = game.BOARD_SHAPE
    cells = state.cells()
    legal_actions = state.legal_actions()
    width = len(str(game.ACTION_COUNT - 1))
    by_column = moves_are_columns(game)
    values = getattr(state, 'values', None)  # point-Othello: each stone's value beside its mark
    if values:
        width = 4
    lines = []
    for y in range(rows):
        marks = []
        for x in range(columns):
            square = y * columns + x
            action = game.square_action(square)
            label = str(action) if cells[square] == 0 and action in legal_actions and not by_column else '.'
            mark = MARKS.get(cells[square], label)
            marks.append((f'{mark}{values[square]:+d}' if values and cells[square] else mark).rjust(width))
        lines.append(' '.join(marks))
    if by_column:
        actions = [game.square_action(x) for x in range(columns)]
        lines.append(' '.join((str(a) if a in legal_actions else ' ').rjust(width) for a in actions).rstrip())
    if hasattr(game, 'status'):
        lines.append(game.status(state))
    return '\n'.join(lines)


# Ask until the human types a legal move; None at end of input
def ask_action(state, read=input):
    legal_actions = state.legal_actions()
    while True:
        try:
            answer = read(f'your move {legal_actions}: ').strip()
        except EOFError:
            return None
        if answer.lstrip('-').isdigit() and int(answer) in legal_actions:
            return int(answer)
        print(f'{answer!r} is not a legal move; type one of {legal_actions}')


def play_text(game, next_action, human_first, read=input):
    state = game.State()
    where = 'under a column' if moves_are_columns(game) else 'on a square'
    print(f'You are {MARKS[1] if human_first else MARKS[-1]}. Type the number shown {where}.')
    while not state.is_done():
        print(board_text(state, game), end='\n\n')
        if state.is_first_player() == human_first:
            action = forced_action(state, game)
            if action is not None:
                print('you have no move and pass')
            else:
                action = ask_action(state, read)
            if action is None:
                print('\nbye')
                return None
        else:
            action = next_action(state)
            print(f'AI plays {action}')
        state = state.next(action)
    print(board_text(state, game))
    print(result_text(state, human_first))
    return state


# ----- the window -----
def play_window(game, next_action, human_first):
    import tkinter as tk

    rows, columns = game.BOARD_SHAPE
    # Discs of two colours (first player, second player), or the book's o and x when the game has none
    stone_colors = getattr(game, 'STONE_COLORS', None)
    board_color = getattr(game, 'BOARD_COLOR', '#00A0FF')
    line_color = '#333333' if stone_colors else '#0077BB'
    status_height = 50 if hasattr(game, 'status') else 30  # room for a second status line

    class GameUI(tk.Frame):
        def __init__(self, master=None):
            tk.Frame.__init__(self, master)
            self.master.title('AlphaZero ' + game.NAME)
            self.state = game.State()
            self.canvas = tk.Canvas(self, width=columns * SQUARE_SIZE, height=rows * SQUARE_SIZE + status_height,
                                    highlightthickness=0)
            self.canvas.bind('<Button-1>', self.turn_of_human)
            self.canvas.pack()
            self.on_draw()
            if not human_first:
                self.master.after(1, self.turn_of_ai)

        # Human's turn: a click on a legal square, or a new game once this one is over
        def turn_of_human(self, event):
            if self.state.is_done():
                self.state = game.State()
                self.on_draw()
                if not human_first:
                    self.master.after(1, self.turn_of_ai)
                return
            if self.state.is_first_player() != human_first:
                return
            x, y = int(event.x // SQUARE_SIZE), int(event.y // SQUARE_SIZE)
            if x >= columns or y >= rows:
                return
            action = game.square_action(y * columns + x)
            if action not in self.state.legal_actions():
                return
            self.play(action)

        # Play a move; then it is the AI's turn
        def play(self, action):
            self.state = self.state.next(action)
            self.on_draw()
            if not self.state.is_done():
                self.master.after(1, self.turn_of_ai)

        # AI's turn; when the human then has no move but a pass, it is played for them
        def turn_of_ai(self):
            if self.state.is_done():
                return
            self.state = self.state.next(next_action(self.state))
            self.on_draw()
            forced = None if self.state.is_done() else forced_action(self.state, game)
            if forced is not None:
                self.master.after(1000, lambda: self.play(forced))

        # Draw the board, the stones and the status line
        def on_draw(self):
            self.canvas.delete('all')
            self.canvas.create_rectangle(0, 0, columns * SQUARE_SIZE, rows * SQUARE_SIZE, width=0, fill=board_color)
            for i in range(1, columns):
                self.canvas.create_line(i * SQUARE_SIZE, 0, i * SQUARE_SIZE, rows * SQUARE_SIZE, width=2, fill=line_color)
            for i in range(1, rows):
                self.canvas.create_line(0, i * SQUARE_SIZE, columns * SQUARE_SIZE, i * SQUARE_SIZE, width=2, fill=line_color)
            for index, owner in enumerate(self.state.cells()):
                x, y = (index % columns) * SQUARE_SIZE, (index // columns) * SQUARE_SIZE
                if owner and stone_colors:
                    self.canvas.create_oval(x + 8, y + 8, x + SQUARE_SIZE - 8, y + SQUARE_SIZE - 8, width=1,
                                            outline='#333333', fill=stone_colors[0 if owner == 1 else 1])
                    if hasattr(self.state, 'values'):  # point-Othello: the stone's value on it
                        self.canvas.create_text(x + SQUARE_SIZE // 2, y + SQUARE_SIZE // 2, text=f'{self.state.values[index]:+d}',
                                                fill='#FFFFFF' if owner == 1 else '#000000', font=('Helvetica', 16, 'bold'))
                elif owner == 1:
                    self.canvas.create_oval(x + 10, y + 10, x + SQUARE_SIZE - 10, y + SQUARE_SIZE - 10, width=2, outline='#FFFFFF')
                elif owner == -1:
                    self.canvas.create_line(x + 10, y + 10, x + SQUARE_SIZE - 10, y + SQUARE_SIZE - 10, width=2, fill='#5D5D5D')
                    self.canvas.create_line(x + SQUARE_SIZE - 10, y + 10, x + 10, y + SQUARE_SIZE - 10, width=2, fill='#5D5D5D')
            human_to_move = self.state.is_first_player() == human_first
            if self.state.is_done():
                status = result_text(self.state, human_first) + ' - click for a new game'
            elif human_to_move and forced_action(self.state, game) is not None:
                status = 'you have no move and pass'
            else:
                status = 'your move' if human_to_move else 'AI is thinking...'
            if stone_colors:
                status = f'you: {stone_colors[0 if human_first else 1]} - ' + status
            if hasattr(game, 'status'):  # point-Othello: the scores and the values to place
                status += '\n' + game.status(self.state, stone_colors)
            self.canvas.create_text(columns * SQUARE_SIZE // 2, rows * SQUARE_SIZE + status_height // 2, text=status)

    try:
        root = tk.Tk()
    except tk.TclError as error:
        raise UserError(f'cannot open a window ({error}); use --text to play in the terminal') from None
    GameUI(root).pack()
    root.mainloop()


# The AI's move function: the book's search; in a game with hidden information (point-Othello's
# future values) the batched search over samples of what it cannot see, so that it plays fair
def ai_action(game, network, sims):
    determinize = getattr(game, 'determinize', None)
    if determinize is None:
        return pv_mcts_action(network, 0.0, sims)
    player = MctsPlayer(Evaluator(network), sims, 0.0, np.random.default_rng(), determinize=determinize)
    return lambda state: player.choose([state])[0][0]


def main():
    parser = argparse.ArgumentParser(description='Play against the best model: in a window (click a square), '
                                                 'or in the terminal with --text (type the number shown on a square).')
    add_game_flag(parser)
    parser.add_argument('--text', action='store_true', help='play in the terminal instead of a window')
    parser.add_argument('--second', action='store_true', help='let the AI move first')
    parser.add_argument('--sims', type=int, help=f'search simulations per move (default: what the model records, else {PV_EVALUATE_COUNT})')
    parser.add_argument('--model', help="a model file, .h5 or .onnx (default: the game's best.h5, on onnxruntime when its export is current)")
    args = parse_game_args(parser, keep=('sims',))
    if args.sims is not None and args.sims < 1:
        raise UserError('--sims must be at least 1')
    game = load_game(args.game)
    path = args.model or playing_model_path(game)
    network, description = load_network(path, game)
    sims, why = playing_sims(args.sims, path, PV_EVALUATE_COUNT)
    print(f'AI: {description}, {sims} simulations per move ({why})', file=sys.stderr)
    next_action = ai_action(game, network, sims)
    if args.text:
        play_text(game, next_action, not args.second)
    else:
        play_window(game, next_action, not args.second)


if __name__ == '__main__':
    run(main)
