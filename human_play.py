# ====================
# Play against the AI (the book's human_play.py)
# ====================
# The book's window: click a square to move (in Connect Four, any square of the column); the AI
# answers with its search at temperature 0. A player with no move but a pass (Othello) passes by
# itself. With --text it plays in the terminal instead, for machines without a display.

import datetime
import os
import sys
import unicodedata


from alphazero.settings import SearchSettings
from alphazero.cli.run import ArgumentParser, run
from alphazero.errors import UserError
from alphazero.cli.flags import (add_backend_flag, add_level_flag, add_settai_flag, add_settings_flags, agent_spec,
                                  handicap_flag)
from alphazero.game.notation import action_names, line_names, parse_move
from alphazero.game.paths import playing_model_path
from alphazero.game.registry import add_game_flag, as_game, load_game
from alphazero.game.shogi_handicaps import ENGLISH, HANDICAPS, handicap_of
from alphazero.game.solved import Solved
from alphazero.records.common import RecordError, replay
from alphazero.records.read import read_records
from alphazero.records.write import record_extension, write_record
from alphazero.game.values import player_value
from alphazero.limits import file_path
from alphazero.play.agent import load_agent
from alphazero.play.players import Searched
from alphazero.play.review import review_moves
from alphazero.cli.words import (LANGUAGES, PLAYER_GROUPS_JA, PLAYER_HELP_JA, WORDS, colour, game_text, language,
                                  language_asked, level_text, said_error, said_text, words)

# Parameters
SQUARE_SIZE = 80        # pixels per square of the window
RECORDS = 'records/played'  # where the terminal saves each game's record (--save-to)
HANDICAP_GAMES = ('shogi9',)      # the games --handicap plays: full shogi's 駒落ち


# The result line shown when the game is over, from the human's side
def result_text(state, human_first, said=WORDS['en']):
    return said[{1: 'win', 0: 'draw', -1: 'lose'}[player_value(state, human_first)]]


# The move the human must make without choosing: the only legal action when no square is
# clickable for it (Othello's pass), else None
def forced_action(state, game):
    if game.square_action is None:  # a move is never a single square; never forced
        return None
    rows, columns = game.BOARD_SHAPE
    legal_actions = state.legal_actions()
    clickable = {game.square_action(square) for square in range(rows * columns)}
    return legal_actions[0] if len(legal_actions) == 1 and legal_actions[0] not in clickable else None


# ----- the terminal -----
RESIGN = ('投了', 'resign')   # typed instead of a move: the human gives up (the game is saved as such)
UNDO = ('待った', 'undo')     # typed instead of a move: take back the last move of each side
LISTED = 12                   # the prompt lists the legal moves up to this many, else gives an example


# True when a move is a whole column (Connect Four), not a square
def moves_are_columns(game):
    if game.square_action is None:
        return False
    rows, columns = game.BOARD_SHAPE
    return len({game.square_action(square) for square in range(rows * columns)}) == columns


# The players' marks in the terminal: stones as ● and ○ (the first player's, the second's), else the
# game's own marks (the book's o and x)
def marks_of(game):
    return ('●', '○') if game.STONE_COLORS else game.MARKS


# Columns a terminal gives a text: Japanese terminals draw ● and ○ (East Asian "ambiguous" width)
# two columns wide, as they draw kana and kanji
def display_width(text, japanese):
    wide = ('F', 'W', 'A') if japanese else ('F', 'W')
    return sum(2 if unicodedata.east_asian_width(c) in wide else 1 for c in text)


# The board with its coordinates (columns a, b, ... and rows 1, 2, ... from the top, the names that
# are typed: f5); * marks a legal square. Games whose moves are named (shogi) show their own board
def board_text(state, game, said=WORDS['en']):
    if game.action_name:
        return str(state)
    rows, columns = game.BOARD_SHAPE
    japanese = said['lang'] == 'ja'
    marks, cells, legal = marks_of(game), state.cells(), set(state.legal_actions())
    by_column = moves_are_columns(game)
    empty, playable = ('・', '＊') if japanese else ('.', '*')
    texts = []
    for square, owner in enumerate(cells):
        if owner:
            label = game.stone_label(state, square) if game.stone_label else ''
            texts.append(marks[0 if owner == 1 else 1] + label)
        else:
            texts.append(playable if not by_column and game.square_action(square) in legal else empty)
    letters = [chr(ord('ａ' if japanese else 'a') + x) for x in range(columns)]
    width = max(display_width(text, japanese) for text in texts + letters)
    separator = '' if japanese and width == 2 else ' '

    def line(label, row_texts):
        return label.rjust(len(str(rows))) + ' ' + separator.join(
            ' ' * (width - display_width(text, japanese)) + text for text in row_texts)
    lines = [line('', letters)]
    lines += [line(str(y + 1), texts[y * columns:(y + 1) * columns]) for y in range(rows)]
    if game.status:
        lines.append(game.status(state, marks, said['lang']))
    return '\n'.join(lines)


# How a move is shown: in Japanese as the game's records write it (shogi's ▲７六歩), else by its
# name (shogi's USI 7g7f) or its square (f5; Connect Four's column, d)
def move_text(game, state, action, said=WORDS['en']):
    if said['lang'] == 'ja' and game.japanese_name:
        return game.japanese_name(state, action)
    if action == game.PASS and game.square_action is not None:
        return said['pass_move']
    return game.action_name(state, action) if game.action_name else action_names(game)[action]


# The action a typed move stands for, or None
def typed_action(game, state, text):
    if game.parse_action:
        return game.parse_action(state, text)
    action = parse_move(game, unicodedata.normalize('NFKC', text).strip())  # ｆ５ as the board's header shows it
    return action if action in state.legal_actions() else None


# What the prompt offers: the legal moves when they are few, else one of them as an example
def offered_moves(game, state, said):
    names = [move_text(game, state, action, said) for action in state.legal_actions()]
    if len(names) <= LISTED:
        return ' '.join(names)
    return said['example'].format(move=names[len(names) // 2])


# Ask until the human types a legal move, 投了 (resign) or 待った (undo): the action, RESIGN or UNDO;
# None at end of input
def ask_action(state, read, game, said=WORDS['en']):
    offered = offered_moves(game, state, said)
    while True:
        try:
            answer = read(said['ask'].format(offered=offered)).strip()
        except EOFError:
            return None
        if answer.lower() in RESIGN:
            return RESIGN
        if answer.lower() in UNDO:
            return UNDO
        action = typed_action(game, state, answer)
        if action is not None:
            return action
        why = game.refusal(state, answer, said['lang']) if game.refusal else None  # shogi: 二歩, which 金, 成 or 不成
        print(said['illegal_why' if why else 'illegal'].format(answer=answer, offered=offered, why=why))


# The human's states before each of their moves that was chosen (not a forced pass): 待った goes
# back to the last of them
def take_back(history, game, human_first):
    for index in range(len(history) - 2, -1, -1):
        state = history[index][0]
        if state.is_first_player() == human_first and forced_action(state, game) is None:
            return history[:index + 1]
    return None


# How the game ended: as a record says it where the game has one (shogi: まで95手で先手の勝ち（詰み）,
# まで40手で中断), then, unless the human left, the result from their side
def ending_lines(game, state, human_first, said, resigned=False):
    lines = [game.conclusion(state, resigned, said['lang'])] if game.conclusion else []
    if game.score and game.STONE_COLORS and state.is_done():  # Othello: the discs of each colour (黒 9 – 白 55)
        cells = state.cells()
        lines.append(f'{colour(game.STONE_COLORS[0], said)} {cells.count(1)} – '
                     f'{colour(game.STONE_COLORS[1], said)} {cells.count(-1)}')
    if resigned:
        lines.append(said['lose'])
    elif state.is_done():
        lines.append(result_text(state, human_first, said))
    return lines


def play_text(game, next_action, human_first, read=input, said=WORDS['en'], save=None, review=None, start=None):
    """A game in the terminal from `start` (a State; None: the game's start); `save(actions, final
    state, resigned, evaluations)`, when given, keeps its record (finished, resigned or abandoned) with
    the AI's evaluations ({ply: (value for the mover, line)}) of its moves, and `review(actions)`
    reviews a finished or resigned one. Returns the final state, or None when the human left."""
    game = as_game(game)
    history = [(start or game.State(), None)]  # (state, the action played from it)
    if game.action_name:
        print(said['you_play'].format(side=side_words(game, history[0][0], said)[0 if human_first else 1],
                                      help=game_text(game.MOVE_HELP, said)))
    else:
        mark = marks_of(game)[0 if human_first else 1]
        if game.STONE_COLORS:
            mark += said['colour_of'].format(colour=colour(game.STONE_COLORS[0 if human_first else 1], said))
        print(said['you_are'].format(mark=mark, where=said['by_column'] if moves_are_columns(game) else said['by_square']))
    print(said['resign_undo'])
    resigned = left = False
    evaluations = {}
    while not history[-1][0].is_done():
        state = history[-1][0]
        print(board_text(state, game, said), end='\n\n')
        if state.is_first_player() == human_first:
            action = forced_action(state, game)
            if action is not None:
                print(said['pass'])
            else:
                action = ask_action(state, read, game, said)
            if action is UNDO:
                kept = take_back(history, game, human_first)
                print(said['undone'] if kept else said['nothing_to_undo'])
                history = kept or history
                continue
            if action is None or action is RESIGN:
                resigned, left = action is RESIGN, action is None
                break
        else:
            action = next_action(state)
            solved = getattr(next_action, 'solved', None)  # the exact result the game's solver proved
            searched = getattr(next_action, 'searched', None)
            if solved or searched:
                evaluations[len(history) - 1] = (solved.value, solved.line) if solved else (searched.value, searched.line)
            print(said['ai_plays'].format(move=move_text(game, state, action, said))
                  + (said['solved'].format(result=solved.says(said['lang'])) if solved else ''))
        history[-1] = (state, action)
        history.append((state.next(action), None))
    final = history[-1][0]
    print(board_text(final, game, said))
    for line in ending_lines(game, final, human_first, said, resigned):
        print(line)
    if save is not None:
        path = save([action for _, action in history[:-1]], final, resigned, evaluations)
        if path:
            print(said['saved'].format(path=path))
    if left:
        print(said['bye'])
        return None
    if review is not None:
        review([action for _, action in history[:-1]])
    return final


def game_review(game, agent, human_first, said, start=None):
    """review(actions) for play_text: the human's moves that lost most of their expected score
    (alphazero/play/review.py), each with the move and the line that the AI prefers there."""
    def review(actions):
        states = [start or game.State()]
        for action in actions:
            states.append(states[-1].next(action))
        print(said['review'])
        human = lambda t: states[t].is_first_player() == human_first and forced_action(states[t], game) is None  # noqa: E731
        print_marks(game, states, actions, review_moves(agent.evaluator, agent.search, states, actions, human, game.solve),
                    said, said['no_marks'])
    return review


def record_review(game, agent, path, said):
    """--review FILE: every move of each game of a record file (KIF, KI2, CSA, USI; an Othello
    transcript) that lost most of its mover's expected score, with the move and line the AI prefers."""
    try:
        games, problems = read_records(path, game, unfinished=True)
    except RecordError as error:
        raise UserError(str(error)) from None
    for problem in problems:
        print(said_error(problem, said), file=sys.stderr)
    if not games:
        raise UserError(said['no_games'].format(path=path))
    for number, moves in enumerate(games, 1):
        played, final = replay(game, moves)
        states, actions = [state for state, _ in played] + [final], [action for _, action in played]
        print(said['review_record'].format(path=path, number=number, games=len(games), moves=len(actions)))
        both = lambda t: forced_action(states[t], game) is None  # noqa: E731
        print_marks(game, states, actions, review_moves(agent.evaluator, agent.search, states, actions, both, game.solve),
                    said, said['no_marks_record'])


def print_marks(game, states, actions, marks, said, none):
    """Each marked move: its number, the move, 悪手/疑問手, the expected scores with the preferred
    move and with the move played, and the preferred line."""
    for mark in marks:
        names = line_names(states[mark.ply], mark.line, lambda state, action: move_text(game, state, action, said))
        print(said['marked'].format(number=mark.ply + 1, move=move_text(game, states[mark.ply], actions[mark.ply], said),
                                    label=said['bad_move' if mark.bad else 'dubious_move'], before=round(100 * mark.before),
                                    after=round(100 * mark.after), best=names[0], line=' '.join(names),
                                    exact=said['exact'] if mark.exact else ''))
    if not marks:
        print(none)


def record_saver(game, folder, human_first, said, start=None):
    """save(actions, final, resigned) for play_text: writes the game's record (from `start`, a State,
    or the game's start) to a new file in `folder` and returns its path (None where the game has no
    record format)."""
    started = datetime.datetime.now()

    def save(actions, final, resigned, evaluations=None):
        extension = record_extension(game)
        if extension is None or not actions:
            return None
        path = os.path.join(folder, f'{game.NAME}-{started.strftime("%Y%m%d-%H%M%S")}{extension}')
        names = (said['you_name'], 'AlphaZero') if human_first else ('AlphaZero', said['you_name'])
        write_record(path, game, actions, evaluations, names, resigned, started, start)
        return path
    return save


# ----- the window -----
def play_window(game, next_action, human_first, said=WORDS['en']):
    import tkinter as tk

    rows, columns = game.BOARD_SHAPE
    # Discs of two colours (first player, second player), or the book's o and x when the game has none;
    # the colours are the game's (alphazero/game/contract.py), as on the page
    stone_colors, board_color, line_color = game.STONE_COLORS, game.BOARD_COLOR, game.LINE_COLOR
    stone_shades = game.STONE_SHADES or stone_colors
    status_height = 50 if game.status else 30  # room for a second status line

    class GameUI(tk.Frame):
        def __init__(self, master=None):
            tk.Frame.__init__(self, master)
            self.master.title('AlphaZero: ' + game_title(game, said))
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
                                            outline='#333333', fill=stone_shades[0 if owner == 1 else 1])
                    if game.stone_label:  # point-Othello: the stone's value on it
                        self.canvas.create_text(x + SQUARE_SIZE // 2, y + SQUARE_SIZE // 2, text=game.stone_label(self.state, index),
                                                fill='#FFFFFF' if owner == 1 else '#000000', font=('Helvetica', 16, 'bold'))
                elif owner == 1:
                    self.canvas.create_oval(x + 10, y + 10, x + SQUARE_SIZE - 10, y + SQUARE_SIZE - 10, width=2, outline='#FFFFFF')
                elif owner == -1:
                    self.canvas.create_line(x + 10, y + 10, x + SQUARE_SIZE - 10, y + SQUARE_SIZE - 10, width=2, fill='#5D5D5D')
                    self.canvas.create_line(x + SQUARE_SIZE - 10, y + 10, x + 10, y + SQUARE_SIZE - 10, width=2, fill='#5D5D5D')
            human_to_move = self.state.is_first_player() == human_first
            if self.state.is_done():
                status = result_text(self.state, human_first, said) + said['again']
            elif human_to_move and forced_action(self.state, game) is not None:
                status = said['pass']
            else:
                status = said['your_move'] if human_to_move else said['thinking']
            if stone_colors:
                status = said['you_side'].format(side=colour(stone_colors[0 if human_first else 1], said)) + status
            if game.status:  # point-Othello: the scores and the values to place
                status += '\n' + game.status(self.state, [colour(c, said) for c in stone_colors], said['lang'])
            self.canvas.create_text(columns * SQUARE_SIZE // 2, rows * SQUARE_SIZE + status_height // 2, text=status)

    open_window(GameUI)


def open_window(frame):
    import tkinter as tk
    try:
        root = tk.Tk()
    except tk.TclError as error:
        raise UserError(f'cannot open a window ({error}); use --text to play in the terminal') from None
    frame(root).pack()
    root.mainloop()


# ----- the window for games whose pieces move (shogi): pick a piece (or a piece in hand), then the
# square it goes to -----
def play_piece_window(game, next_action, human_first, said=WORDS['en'], start=None):
    import tkinter as tk

    rows, columns = game.BOARD_SHAPE
    hand_height = SQUARE_SIZE * 2 // 3   # a row of pieces in hand above the board (the second player's) and below
    top = hand_height
    me = 0 if human_first else 1

    class ShogiUI(tk.Frame):
        def __init__(self, master=None):
            tk.Frame.__init__(self, master)
            self.master.title('AlphaZero: ' + game_title(game, said))
            self.state, self.picked = start or game.State(), None
            self.canvas = tk.Canvas(self, width=columns * SQUARE_SIZE, height=rows * SQUARE_SIZE + 2 * hand_height + 50,
                                    highlightthickness=0)
            self.canvas.bind('<Button-1>', self.click)
            self.canvas.pack()
            self.on_draw()
            if not self.human_to_move():  # the AI moves first (or, as 上手, first in a handicap game)
                self.master.after(1, self.turn_of_ai)

        def human_to_move(self):
            return not self.state.is_done() and self.state.is_first_player() == human_first

        # The legal actions that start from what is picked
        def picked_actions(self):
            return [a for a in self.state.legal_actions()
                    if self.picked in (('square', game.action_squares(self.state, a)[0]), ('hand', game.action_squares(self.state, a)[2]))]

        def click(self, event):
            if self.state.is_done():
                self.state, self.picked = start or game.State(), None
                self.on_draw()
                if not self.human_to_move():
                    self.master.after(1, self.turn_of_ai)
                return
            if not self.human_to_move():
                return
            x, y = int(event.x // SQUARE_SIZE), int((event.y - top) // SQUARE_SIZE)
            on_board = 0 <= x < columns and 0 <= event.y - top < rows * SQUARE_SIZE
            own_hand_row = event.y >= top + rows * SQUARE_SIZE if human_first else event.y < top
            target = (('square', y * columns + x) if on_board
                      else ('hand', self.hand_piece_at(event.x)) if own_hand_row and event.y < top * 2 + rows * SQUARE_SIZE else None)
            # A picked piece goes to the square clicked; else the click picks (or unpicks) a piece
            if self.picked and target and target[0] == 'square':
                for action in self.picked_actions():
                    if game.action_squares(self.state, action)[1] == target[1]:
                        self.picked = None
                        self.state = self.state.next(action)
                        self.on_draw()
                        if not self.state.is_done():
                            self.master.after(1, self.turn_of_ai)
                        return
            self.picked = None if target == self.picked else target
            if not self.picked_actions():
                self.picked = None
            self.on_draw()

        # The piece of the human's hand under x
        def hand_piece_at(self, x):
            pieces = [p for p, n in self.state.hands()[me].items() for _ in range(n)]
            index = int(x // hand_height)
            return pieces[index] if index < len(pieces) else None

        def turn_of_ai(self):
            if not self.state.is_done():
                self.state = self.state.next(next_action(self.state))
                self.on_draw()

        # A piece: its letter, a dot towards each step it can take, turned round for the second player
        def draw_piece(self, cx, cy, size, piece, player):
            half = size * 0.38
            self.canvas.create_rectangle(cx - half, cy - half, cx + half, cy + half, width=1, outline='#4E342E',
                                         fill='#FFFAF0' if player == 0 else '#D7CCC8')
            sign = 1 if player == 0 else -1
            self.canvas.create_text(cx, cy, text=game.piece_letter(piece), font=('Helvetica', int(size * 0.3), 'bold'),
                                    fill='#4E342E', angle=0 if player == 0 else 180)
            for dx, dy in game.piece_steps(piece):
                px, py = cx + sign * dx * half * 0.75, cy + sign * dy * half * 0.75
                self.canvas.create_oval(px - 3, py - 3, px + 3, py + 3, fill='#C62828', width=0)

        def on_draw(self):
            self.canvas.delete('all')
            targets = {game.action_squares(self.state, a)[1] for a in self.picked_actions()} if self.picked else set()
            board_top, board_bottom = top, top + rows * SQUARE_SIZE
            self.canvas.create_rectangle(0, board_top, columns * SQUARE_SIZE, board_bottom, width=0, fill=game.BOARD_COLOR)
            for i in range(1, columns):
                self.canvas.create_line(i * SQUARE_SIZE, board_top, i * SQUARE_SIZE, board_bottom, fill=game.LINE_COLOR,
                                        width=2)
            for i in range(1, rows):
                self.canvas.create_line(0, board_top + i * SQUARE_SIZE, columns * SQUARE_SIZE, board_top + i * SQUARE_SIZE,
                                        fill=game.LINE_COLOR, width=2)
            for square, cell in enumerate(self.state.cells()):
                x, y = (square % columns) * SQUARE_SIZE, board_top + (square // columns) * SQUARE_SIZE
                if self.picked == ('square', square) or square in targets:
                    self.canvas.create_rectangle(x + 2, y + 2, x + SQUARE_SIZE - 2, y + SQUARE_SIZE - 2, width=3, outline='#2962FF')
                if cell:
                    self.draw_piece(x + SQUARE_SIZE / 2, y + SQUARE_SIZE / 2, SQUARE_SIZE, abs(cell), 0 if cell > 0 else 1)
            # The hands: the second player's above the board, the first player's below
            for player, y in ((1, 0), (0, board_bottom)):
                pieces = [p for p, n in self.state.hands()[player].items() for _ in range(n)]
                for i, piece in enumerate(pieces):
                    if player == me and self.picked == ('hand', piece) and pieces.index(piece) == i:
                        self.canvas.create_rectangle(i * hand_height + 1, y + 1, (i + 1) * hand_height - 1, y + hand_height - 1,
                                                     width=3, outline='#2962FF')
                    self.draw_piece(i * hand_height + hand_height / 2, y + hand_height / 2, hand_height, piece, player)
            if self.state.is_done():
                status = result_text(self.state, human_first, said) + said['again']
            else:
                status = said['pick'] if self.human_to_move() else said['thinking']
            side = side_words(game, self.state, said)[0 if human_first else 1]
            self.canvas.create_text(columns * SQUARE_SIZE // 2, board_bottom + hand_height + 25,
                                    text=said['you_side'].format(side=side) + status,
                                    width=columns * SQUARE_SIZE - 10, justify='center')

    open_window(ShogiUI)


# The AI's move function: its agent's choice (alphazero/play/agent.py: the search at temperature 0,
# or a level, settai mode, the game's solver). What the solver proved of the AI's last move, if
# anything, is its `solved` (play_text says it), and its search (value and line, for the record) its
# `searched`; at a level of the policy alone, the network's value and the move played
def ai_action(agent):
    def next_action(state):
        action, known = agent.choose([state])[0]  # a Searched, a Solved or None
        if known is None:  # the policy alone: the network's value, and its move as the line (records keep both)
            known = Searched(None, agent.network_value(state), (action,))
        next_action.solved = known if isinstance(known, Solved) else None
        next_action.searched = None if isinstance(known, Solved) else known
        return action
    next_action.solved = next_action.searched = None
    return next_action


def parse_args(argv=None):
    parser = ArgumentParser(description='Play against the best model: in a window (click a square), '
                                        'or in the terminal with --text (type the number shown on a square).')
    add_game_flag(parser)
    parser.add_argument('--text', action='store_true', help='play in the terminal instead of a window')
    parser.add_argument('--second', action='store_true', help='let the AI move first')
    parser.add_argument('--handicap', type=handicap_flag, metavar='NAME',
                        help='full shogi: a handicap game (駒落ち), which the AI gives as 上手 and begins: '
                             + ', '.join(f'{name} ({english})' for name, english in ENGLISH.items()))
    add_level_flag(parser)
    add_backend_flag(parser)
    parser.add_argument('--model', type=file_path, help="a model file, .h5 or .onnx (default: the game's best.h5, on onnxruntime when its export is current)")
    parser.add_argument('--lang', choices=LANGUAGES, help='the language of the window and the terminal (default: Japanese '
                                                          'when the locale is Japanese, else English)')
    parser.add_argument('--review', nargs='?', const=True, default=None, metavar='FILE',
                        help='--text: after the game, mark your moves that lost 10 points or more of your expected '
                             'score (dubious) or 20 (bad), with the move and line the AI prefers; with a record file '
                             '(KIF, KI2, CSA, USI; an Othello transcript): review its moves, both sides, and end')
    parser.add_argument('--save-to', metavar='FOLDER', default=RECORDS,
                        help='the folder where --text saves each game: full shogi as KIF, games of squares as a '
                             'transcript (f5d6c3...); "" saves nothing (default: %(default)s)')
    add_settings_flags(parser, SearchSettings, sims=None)
    add_settai_flag(parser)
    if language(language_asked(sys.argv[1:] if argv is None else argv)) == 'ja':
        parser.speak_japanese(PLAYER_HELP_JA['description'], PLAYER_HELP_JA, PLAYER_GROUPS_JA)
    return parser.parse_args(argv)


def main():
    args = parse_args()
    said = words(language(args.lang))
    try:
        play(args, said)
    except UserError as error:  # said in the player's language
        raise UserError(said_error(str(error), said), said['lang']) from None


def play(args, said):
    game = load_game(args.game)
    lang = said['lang']
    if not args.text and not game.has_window and not isinstance(args.review, str):
        raise UserError(said['no_window'].format(game=game_title(game, said)))
    start = handicap_start(game, args, said)  # a wrong --handicap is said before the model loads
    agent = load_agent(game, agent_spec(args, model=args.model or playing_model_path(game, lang=lang), with_lines=True))
    print(said['ai_is'].format(description=said_text(agent.description, said), sims=agent.sims,
                               why=said_text(agent.why, said), level=level_text(agent.level, said),
                               levels=len(agent.levels)), file=sys.stderr)
    if args.settai:
        print(said['settai'], file=sys.stderr)
    if isinstance(args.review, str):
        record_review(game, agent, args.review, said)
        return
    next_action = ai_action(agent)
    if args.text:
        play_text(game, next_action, not args.second, said=said,
                  save=record_saver(game, args.save_to, not args.second, said, start) if args.save_to else None,
                  review=game_review(game, agent, not args.second, said, start) if args.review else None, start=start)
    elif game.action_squares:
        play_piece_window(game, next_action, not args.second, said, start)
    else:
        play_window(game, next_action, not args.second, said)


def handicap_start(game, args, said):
    """The start of a handicap game (--handicap), the AI as 上手, or None for the game's own start."""
    if args.handicap is None:
        return None
    if game.NAME not in HANDICAP_GAMES or args.second:
        raise UserError(said['no_handicap'].format(game=game_title(game, said)) if game.NAME not in HANDICAP_GAMES
                        else said['handicap_second'])
    print(said['handicap'].format(name=args.handicap if said['lang'] == 'ja' else ENGLISH[args.handicap]), file=sys.stderr)
    return game.State(HANDICAPS[args.handicap])


def game_title(game, said):
    """A game as the player calls it: its title in the player's language (本将棋), else its name."""
    return game_text(game.TITLE or {'en': game.NAME}, said)


def side_words(game, state, said):
    """The names of the sides (first player's, second's) as the player reads them: the game's, or in a
    handicap game 下手 and 上手."""
    if getattr(state, 'sfen', None) and handicap_of(state.sfen):
        return said['handicap_sides']
    return game_text(game.SIDE_NAMES, said)


def command():
    """The installed console command (pyproject.toml's [project.scripts]): main() with one-line errors."""
    run(main)


if __name__ == '__main__':
    command()
