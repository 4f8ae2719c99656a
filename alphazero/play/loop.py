"""Play many games at once: the loop behind self-play, both evaluations and matches against engines.

All live games whose side to move is the same player are answered in one call, so a search player
evaluates the leaves of all of them together, and an engine player lets its engine processes think at
the same time."""
import time
from dataclasses import dataclass, field
from typing import Optional

from alphazero.game.solved import Solved
from alphazero.game.values import player_value, value_for


class Player:
    """What play_games plays with: choose(states, live_games) answers many live games at once, one
    (action, what the player knows of it) per state, where live_games[i] is the LiveGame of states[i]:
    a search's Searched, the solver's Solved, or None. An action may also be an engine's claim,
    'resign' or 'win'."""

    def choose(self, states, live_games=None):
        raise NotImplementedError


class RemotePlayer(Player):
    """A player that thinks in processes of its own (an engine: alphazero/engines/). play_games asks
    it first, so that it thinks while the searches here run: ask(states, live_games) sends the
    positions and returns a function that reads the answers."""

    def ask(self, states, live_games):
        raise NotImplementedError

    def choose(self, states, live_games=None):
        return self.ask(states, live_games)()


@dataclass
class LiveGame:
    """A game being played: game `index` of the pairings, started by the `opening`
    moves (not recorded), then `moves` by the players; `records` holds (input planes, move
    distribution, ply, the search's value) per recorded player move, and `evaluations` what a player
    said of its move: {ply (the opening counted): (value for the mover, -1 lost .. 1 won; the line of
    actions it expected)}, from a search made `with_lines`, the solver or an engine's score and pv,
    which records keep beside the move. An engine may end a game by a
    claim instead of a move: 'resign' (the side to move of `state` resigned) or 'win' (it declared a
    win, which the engine player has checked)."""
    index: int
    state: object
    opening: tuple = ()
    moves: list = field(default_factory=list)
    records: list = field(default_factory=list)
    claim: Optional[str] = None
    evaluations: dict = field(default_factory=dict)

    @property
    def plies(self):
        """Moves played by the players so far (the opening not counted)."""
        return len(self.moves)

    @property
    def ply(self):
        """The ply of the move to make now, the opening counted."""
        return len(self.opening) + len(self.moves)

    def over(self):
        return self.claim is not None or self.state.is_done()

    def value(self, first_player):
        """The result of the finished game for the first player (first_player=True) or the second."""
        if self.claim is None:
            return player_value(self.state, first_player)
        return value_for(self.state, 1 if self.claim == 'win' else -1, first_player)


def play_games(new_state, pairings, parallel=None, record=False, progress=None, openings=None, starts=None,
               finished=None):
    """Play len(pairings) games, each between pairings[i] = (first player, second player).

    Game i starts from starts[i] (when None or not given: new_state()) after the moves openings[i]
    (none by default). Up to `parallel` games are live at once (all of them by default); a finished
    game's place goes to the next one. Returns the finished LiveGames in order: final state, opening, moves, and the records (input
    planes, move distribution) of every player move when `record` is set. `finished(index, game)`,
    when given, hears of each game as it ends.
    """
    parallel = parallel or len(pairings)
    results = [None] * len(pairings)
    waiting = list(range(len(pairings)))[::-1]
    live = {}  # game index -> LiveGame
    moves_played, shown = 0, time.monotonic()
    while waiting or live:
        # Fill the free places with new games, each after its opening
        while waiting and len(live) < parallel:
            index = waiting.pop()
            opening = tuple(openings[index]) if openings else ()
            state = starts[index] if starts and starts[index] is not None else new_state()
            for action in opening:
                state = state.next(action)
            live[index] = LiveGame(index, state, opening)

        # Group the live games by the player to move, and let each player answer its group at once;
        # engines (other processes) are asked first, so that they think while our search runs
        by_player = {}
        for index, live_game in live.items():
            player = pairings[index][0 if live_game.state.is_first_player() else 1]
            by_player.setdefault(id(player), (player, []))[1].append(live_game)
        asked = [(live_games, player.ask([live_game.state for live_game in live_games], live_games))
                 for player, live_games in by_player.values() if isinstance(player, RemotePlayer)]
        chosen = [(live_games, player.choose([live_game.state for live_game in live_games], live_games))
                  for player, live_games in by_player.values() if not isinstance(player, RemotePlayer)]
        chosen += [(live_games, read_answers()) for live_games, read_answers in asked]
        for live_games, choices in chosen:
            for live_game, (action, known) in zip(live_games, choices):
                if isinstance(action, str):  # an engine's claim: 'resign' or 'win'
                    live_game.claim = action
                    continue
                if known is not None and known.line:  # a search made with_lines, or the solver
                    live_game.evaluations[live_game.ply] = (float(known.value), list(known.line))
                # Only a search teaches: settai and the policy alone know nothing, the solver no distribution
                if record and known is not None and not isinstance(known, Solved):
                    live_game.records.append((live_game.state.planes(), known.policy, live_game.plies, known.value))
                live_game.state = live_game.state.next(action)
                live_game.moves.append(action)
                moves_played += 1
        # Games played side by side end together: meanwhile the progress bar counts their moves
        if progress is not None and time.monotonic() - shown >= 1.0:
            progress.set_postfix_str(f'{moves_played} moves')
            shown = time.monotonic()

        # Retire the finished games
        for index in [i for i, live_game in live.items() if live_game.over()]:
            live_game = live.pop(index)
            results[index] = live_game
            if progress is not None:
                progress.update(1)
            if finished is not None:
                finished(index, live_game)
    return results
