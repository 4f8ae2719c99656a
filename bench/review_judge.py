"""How far the review's 悪手 and 疑問手 agree with a strong judge's, on full-shogi records.

Each move of the records is reviewed as `human_play.py --review FILE` reviews it (alphazero/play/
review.py: one search per position, the played move given its share, df-pn's mates exact), and judged
by a USI engine at a fixed depth (Fairy-Stockfish at depth 10 by default): its score of the position
before the move (its best move's) and of the position after it give the mover's loss of expected
score, its centipawns turned into values as our engine turns values into centipawns
(alphazero/game/values.py). The judge's best move is never marked, as the review's is not. Prints,
for the review's thresholds and a few others, how many moves each marks and how far the marks agree,
and writes every move's two losses to --out (JSON).
Run: .venv/bin/python bench/review_judge.py RECORDS.csa [--games 8] [--judge "/usr/games/fairy-stockfish; go depth 10"]
     [--sims N] [--out review-judge.json]
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

from tqdm import tqdm  # noqa: E402

from alphazero.cli.flags import add_backend_flag, agent_spec  # noqa: E402
from alphazero.cli.run import ArgumentParser, run  # noqa: E402
from alphazero.engines.usi import UsiProcess  # noqa: E402
from alphazero.files import atomic_output  # noqa: E402
from alphazero.game.registry import load_game  # noqa: E402
from alphazero.game.values import terminal_value, value_of_centipawns  # noqa: E402
from alphazero.limits import engine_command, file_path, whole_number  # noqa: E402
from alphazero.play.agent import load_agent  # noqa: E402
from alphazero.play.review import BAD_MOVE, DUBIOUS_MOVE, expected_score, judge_moves  # noqa: E402
from alphazero.records.common import replay  # noqa: E402
from alphazero.records.read import read_records  # noqa: E402

THRESHOLDS = ((DUBIOUS_MOVE, BAD_MOVE), (0.05, 0.1), (0.15, 0.3), (0.2, 0.4))  # (疑問手, 悪手) compared


def judge_losses(game, judge, states, actions):
    """The judge's loss of expected score for each move (0 where it plays the move itself)."""
    scores, best = [], []
    for state in states:
        if state.is_done():
            scores.append(expected_score(terminal_value(state)))
            best.append(None)
            continue
        judge.ask_move(state.usi_position())
        answer = judge.best_move()
        scores.append(expected_score(value_of_centipawns(judge.said[0])) if judge.said else 0.5)
        best.append(answer)
    return [0.0 if best[t] == game.action_name(states[t], action) else scores[t] - (1 - scores[t + 1])
            for t, action in enumerate(actions)]


def agreement(ours, theirs, dubious, bad):
    """What each marks at these thresholds and how far the marks agree."""
    marked_ours = {t for t, loss in enumerate(ours) if loss >= dubious}
    marked_theirs = {t for t, loss in enumerate(theirs) if loss >= dubious}
    bad_ours = {t for t, loss in enumerate(ours) if loss >= bad}
    bad_theirs = {t for t, loss in enumerate(theirs) if loss >= bad}
    both = marked_ours & marked_theirs
    return {'dubious': dubious, 'bad': bad, 'moves': len(ours), 'review_marks': len(marked_ours),
            'judge_marks': len(marked_theirs), 'both_mark': len(both),
            'judge_marks_of_review_marks': len(both) / max(1, len(marked_ours)),
            'review_marks_of_judge_marks': len(both) / max(1, len(marked_theirs)),
            'review_bad': len(bad_ours), 'judge_bad': len(bad_theirs),
            'judge_marks_of_review_bad': len(bad_ours & marked_theirs) / max(1, len(bad_ours)),
            'judge_bad_of_review_bad': len(bad_ours & bad_theirs) / max(1, len(bad_ours))}


def main():
    parser = ArgumentParser(description="Compare the review's marks with a strong USI judge's on full-shogi records.")
    parser.add_argument('records', type=file_path, help='a record file (CSA, KIF, USI)')
    parser.add_argument('--games', type=whole_number(1, 10_000), default=8, help='the first N games of the file')
    parser.add_argument('--judge', type=engine_command, default='/usr/games/fairy-stockfish; go depth 10')
    parser.add_argument('--sims', type=whole_number(1, 100_000), help="the review's simulations (default: the model's)")
    parser.add_argument('--model', type=file_path)
    add_backend_flag(parser)
    parser.add_argument('--out', help='a JSON file for every move\'s losses and the agreement')
    args = parser.parse_args()
    game = load_game('shogi9')
    agent = load_agent(game, agent_spec(args))
    games, problems = read_records(args.records, game)
    ours, theirs = [], []
    judge = UsiProcess(args.judge, 'usi', game.ENGINE_OPTIONS)
    try:
        for moves in tqdm(games[:args.games], desc='games', unit='game'):
            played, final = replay(game, moves)
            states, actions = [state for state, _ in played] + [final], [action for _, action in played]
            ours += [judged.loss for judged in judge_moves(agent.evaluator, agent.search, states, actions,
                                                           lambda t: True, game.solve)]
            theirs += judge_losses(game, judge, states, actions)
    finally:
        judge.close()
    table = [agreement(ours, theirs, dubious, bad) for dubious, bad in THRESHOLDS]
    for row in table:
        print(f"疑問手 {row['dubious']:.2f}, 悪手 {row['bad']:.2f}: of {row['moves']} moves the review marks "
              f"{row['review_marks']} ({row['review_bad']} 悪手), the judge {row['judge_marks']} ({row['judge_bad']}); "
              f"the judge marks {row['judge_marks_of_review_marks']:.0%} of the review's marks and "
              f"{row['judge_marks_of_review_bad']:.0%} of its 悪手 ({row['judge_bad_of_review_bad']:.0%} as 悪手); "
              f"the review marks {row['review_marks_of_judge_marks']:.0%} of the judge's")
    if args.out:
        with atomic_output(args.out) as temporary:
            with open(temporary, 'w') as f:
                json.dump({'records': args.records, 'games': min(args.games, len(games)), 'judge': args.judge,
                           'model': agent.description, 'sims': agent.sims, 'agreement': table,
                           'review_losses': ours, 'judge_losses': theirs}, f, indent=1)


if __name__ == '__main__':
    run(main)
