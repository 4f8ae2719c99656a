"""Matches between two players: colours alternating, each game scored for the player."""
from alphazero.play.loop import play_games
from alphazero.play.openings import duplicate_starts


def match_pairings(player, opponent, game_count):
    """Games between `player` and `opponent`: `player` moves first in the even-numbered games."""
    return [(player, opponent) if i % 2 == 0 else (opponent, player) for i in range(game_count)]


def game_point(result, first_player):
    """The point (1 win, 0.5 draw, 0 loss) a finished game gave its first player, or its second."""
    return (result.value(first_player) + 1) / 2


def player_points(results):
    """The points, game by game, of the player who moved first in the even-numbered games."""
    return [game_point(game, i % 2 == 0) for i, game in enumerate(results)]


def play_match(game, player, opponent, count, progress=None, openings=None):
    """`count` games, colours alternating (the player first in even games), from the same deal in
    pairs when the game deals at random, game i after the moves openings[i] (none by default);
    returns the player's points, game by game."""
    results = play_games(game.State, match_pairings(player, opponent, count), progress=progress,
                         openings=openings, starts=duplicate_starts(game, count))
    return player_points(results)
