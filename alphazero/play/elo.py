"""A match summed up: wins, draws, losses, the score and the Elo difference with its 95% interval."""
import math


def elo(score):
    """The Elo difference that makes `score` (0 to 1) the expected score; infinite at 0 and 1."""
    if score <= 0 or score >= 1:
        return math.copysign(math.inf, score - 0.5)
    return -400 * math.log10(1 / score - 1)


def match_summary(points, z=1.96):
    """Wins, draws, losses, the score, and the Elo difference with a 95% interval.

    The interval is Wilson's for the score (a draw counts half), so it stays finite on the side
    away from a clean sweep. Unbounded ends are None (JSON has no infinity).
    """
    count = len(points)
    score = sum(points) / count
    centre = (score + z * z / (2 * count)) / (1 + z * z / count)
    half = z * math.sqrt(score * (1 - score) / count + z * z / (4 * count * count)) / (1 + z * z / count)
    finite = [elo(s) if math.isfinite(elo(s)) else None for s in (score, centre - half, centre + half)]
    return {'games': count, 'wins': points.count(1), 'draws': points.count(0.5), 'losses': points.count(0),
            'all': score, 'elo': finite[0], 'elo_low': finite[1], 'elo_high': finite[2]}


def describe_match(summary):
    """'won 12, drew 3, lost 25, Elo -115 (95%: -230 to -20)'."""
    def signed(value, unbounded):
        return unbounded if value is None else f'{round(value):+d}'
    elo_text = (f'Elo {signed(summary["elo"], "-inf" if summary["all"] == 0 else "+inf")} '
                f'(95%: {signed(summary["elo_low"], "-inf")} to {signed(summary["elo_high"], "+inf")})')
    return f'won {summary["wins"]}, drew {summary["draws"]}, lost {summary["losses"]}, {elo_text}'
