"""The match runner behind every measurement: matches between two players, colours alternating,
varied openings, the same deal twice when the game deals at random, every match's games played at
once, each game's point kept as it ends (alphazero/play/resumable.py), so that a stopped
measurement goes on where it stopped."""
from dataclasses import dataclass

from alphazero.play.loop import Player, play_games
from alphazero.play.openings import duplicate_starts


@dataclass
class Match:
    """Games of `player` against `opponent`: the player moves first in the even-numbered games, and
    game i starts after the moves openings[i] (one list per game; [] starts from the start). With a
    `handicap` start (a State: full shogi's 駒落ち), every game starts there and the player, giving
    the handicap as 上手, always moves first."""
    key: tuple          # how the match's points are named, e.g. ('level 3', 'VS_Random')
    player: Player
    opponent: Player
    openings: list
    handicap: object = None

    @property
    def games(self):
        return len(self.openings)

    def player_first(self, i):
        return i % 2 == 0 or self.handicap is not None

    def pairing(self, i):
        return (self.player, self.opponent) if self.player_first(i) else (self.opponent, self.player)


def game_point(result, first_player):
    """The point (1 win, 0.5 draw, 0 loss) a finished game gave its first player, or its second."""
    return (result.value(first_player) + 1) / 2


def play_matches(game, matches, parallel=None, progress=None, done=None, keep=None, finished=None):
    """Play every Match, all games at once (their players' searches share network calls), up to
    `parallel` at a time; returns {key: the player's points, game by game}. `done`: {key: points, None
    for a game not played} of a stopped measurement, whose games are not played again; `keep(done)`
    hears after each game, and `finished(match, i, live_game)` of each finished game."""
    done = {} if done is None else done
    todo = [(match, i) for match in matches for i in range(match.games)
            if done.get(match.key, [None] * match.games)[i] is None]
    starts = {match.key: duplicate_starts(game, match.games) for match in matches}
    if progress is not None:
        progress.update(sum(match.games for match in matches) - len(todo))

    def ended(index, result):
        match, i = todo[index]
        done.setdefault(match.key, [None] * match.games)[i] = game_point(result, match.player_first(i))
        if keep:
            keep(done)
        if finished:
            finished(match, i, result)

    def start(match, i):  # None: the game's own start, made when the game begins
        if match.handicap is not None:
            return match.handicap
        return starts[match.key][i] if starts[match.key] else None
    if todo:
        play_games(game.State, [match.pairing(i) for match, i in todo], parallel, progress=progress,
                   openings=[match.openings[i] for match, i in todo], finished=ended,
                   starts=[start(match, i) for match, i in todo])
    return {match.key: done[match.key] for match in matches}


def play_match(game, player, opponent, count, progress=None, openings=None):
    """One match of `count` games (from the start unless `openings`); the player's points, game by game."""
    match = Match(('player', 'opponent'), player, opponent, openings or [[] for _ in range(count)])
    return play_matches(game, [match], progress=progress)[match.key]
