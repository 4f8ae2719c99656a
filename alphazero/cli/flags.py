"""The groups of command-line flags that several stage scripts share. Each function adds one group;
its defaults are the constants of the stage that owns them (at the top of that script, as in the
book), passed in by the script, so that --help shows where every value comes from."""
import argparse

from alphazero.errors import UserError
from alphazero.limits import (
    MAX_CONSIDERED,
    MAX_DEPTH,
    MAX_GAMES,
    MAX_SAMPLES,
    MAX_SIMS,
    MAX_WIDTH,
    engine_command,
    real_number,
    seed,
    whole_number,
)
from alphazero.network.runtimes import add_device_flag
from alphazero.search.search import SearchOptions

NETWORKS = ('book', 'resnet', 'transformer', 'transformer-dense')


def add_search_flags(parser, sims, fallback):
    """How the search runs; with sims None, --sims defaults to what the model records, else `fallback`."""
    parser.add_argument('--sims', type=whole_number(1, MAX_SIMS), default=sims,
                        help=f'search simulations per move (default: what the model records, else {fallback})'
                        if sims is None else 'search simulations per move, PV_EVALUATE_COUNT (default: %(default)s)')
    parser.add_argument('--no-cache', dest='cache', action='store_false',
                        help='evaluate every leaf with the network, even positions seen before')
    parser.add_argument('--backend', choices=('auto', 'onnx', 'keras'), default='auto',
                        help='inference: onnxruntime when best.onnx is current, else Keras (default: %(default)s)')
    parser.add_argument('--seed', type=seed, help='random seed for reproducible games')
    add_search_option_flags(parser)
    add_device_flag(parser)


def add_search_option_flags(parser):
    """How the search differs from the book's (alphazero/batched_mcts.py's SearchOptions): the flags
    of every script that searches, the players' too."""
    parser.add_argument('--gumbel', type=whole_number(0, MAX_CONSIDERED), default=0, metavar='M',
                        help='Gumbel root search: consider M moves at the root, share the simulations among them by '
                             'sequential halving, and (in self-play) train on its improved policy; 0 is the book\'s '
                             'PUCT (default: %(default)s)')
    parser.add_argument('--margin-weight', type=real_number(0, 1), default=0.0, metavar='W',
                        help='a model with a margin head: the search values a position (1 - W) x value + W x margin '
                             'instead of by the value alone (default: %(default)s)')
    parser.add_argument('--fpu', type=fpu_reduction, metavar='R',
                        help='first-play urgency: an unvisited move\'s value is its position\'s network value less '
                             'R x sqrt(prior of the visited moves), instead of 0 as in the book; "off" for the book\'s '
                             'where the game\'s recipe sets it (default: off)')


def fpu_reduction(text):
    """--fpu's argparse type: a reduction from 0 to 10, or None for "off"."""
    return None if text == 'off' else real_number(0, 10)(text)


def add_level_flag(parser):
    parser.add_argument('--level', type=whole_number(1, 10), metavar='N',
                        help='play at level N, 1 the weakest: the policy alone up to four times the model\'s simulations '
                             '(their measured strength: docs/strength.md) (default: the model\'s own simulations)')


def add_settai_flag(parser):
    parser.add_argument('--settai', action='store_true',
                        help='settai mode (接待): the AI aims for a close result, not a win, without playing a move its '
                             'search sees as losing (docs/recipes.md)')


def add_exploration_flags(parser, dirichlet, random_opening, greedy_after, dirichlet_weight):
    """Ways for self-play to try moves its network would not, and what it records to learn from
    (self_play.py's SP_ constants)."""
    parser.add_argument('--dirichlet', type=real_number(0, 1000), default=dirichlet, metavar='ALPHA',
                        help=f'mix Dirichlet(ALPHA) noise into the root priors of self-play, weight '
                             f'{dirichlet_weight}; 0 is off, as in the book (default: %(default)s)')
    parser.add_argument('--random-opening', type=whole_number(0, 1000), default=random_opening, metavar='N',
                        help='start each self-play game after 0 to N random moves, which are not recorded '
                             '(default: %(default)s; 0 is off, as in the book)')
    parser.add_argument('--greedy-after', type=whole_number(0, 1000), default=greedy_after, metavar='N',
                        help='from the Nth move of a self-play game on, play the most visited move instead of '
                             'sampling at the temperature; the policy target stays the visit distribution '
                             '(default: %(default)s; None is never, as in the book)')
    parser.add_argument('--q-ratio', type=real_number(0, 1), default=0.0, metavar='R',
                        help='the value target of a self-play position: (1 - R) x the game\'s result + R x its '
                             'search\'s value of the position (Leela Chess Zero\'s q_ratio); 0 is the result alone, '
                             'as in the book (default: %(default)s)')
    parser.add_argument('--no-peek', dest='peek', action='store_false',
                        help='games with hidden information (pointothello): self-play searches only what a player '
                             'sees, as every other stage does (default: self-play may see it, as the point-Othello '
                             'page\'s does)')
    add_removed_flags(parser)


# Techniques that no recipe or shipped model used and that measured no gain left the code; their
# flags say so in one line (their results: docs/recipes.md; their code: commit 788faf1)
REMOVED_FLAGS = {'--forced-playouts': "KataGo's forced playouts", '--fast-sims': 'playout cap randomization',
                 '--full-share': 'playout cap randomization', '--exact-values': 'exact value targets'}


class RemovedFlag(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):
        parser.error(f'{option_string} was removed with {REMOVED_FLAGS[option_string]}, which measured no gain '
                     '(docs/recipes.md): leave it out')


def add_removed_flags(parser):
    for flag in REMOVED_FLAGS:
        parser.add_argument(flag, nargs='?', action=RemovedFlag, help=argparse.SUPPRESS)


def search_options(args):
    """The SearchOptions the search flags ask for."""
    return SearchOptions(fpu_reduction=args.fpu, gumbel_considered=args.gumbel, margin_weight=args.margin_weight)


def add_opening_flag(parser, opening):
    parser.add_argument('--opening', type=whole_number(0, 1000), default=opening, metavar='K',
                        help='each game of a match starts after K random moves, and each '
                             'opening is played once with each colour; 0 starts from the start, as the book '
                             '(default: %(default)s)')


def add_engine_flags(parser, engine_games, opening):
    """Other programs as opponents: GTP engines, USI engines for full shogi (evaluate_best_player.py's
    EP_ constants)."""
    parser.add_argument('--engine', action='append', default=[], metavar='COMMAND', type=engine_command,
                        help='also play this GTP engine, for example --engine "/usr/games/gtp-rhino -l 1", or for '
                             'full shogi a USI engine and its go line, "/usr/games/fairy-stockfish; go depth 3" '
                             '(repeat the flag for several engines)')
    parser.add_argument('--engine-games', type=whole_number(1, MAX_GAMES), default=engine_games, metavar='N',
                        help='games against each engine (default: %(default)s)')
    add_opening_flag(parser, opening)


def add_training_flags(parser, window, samples, learning_rate, steps_per_execution):
    """What each training stage trains on (train_network.py's RN_ constants)."""
    parser.add_argument('--window', type=whole_number(1), default=window,
                        help='train on the newest K history files (default: %(default)s, the book)')
    parser.add_argument('--symmetries', action='store_true',
                        help="also train on every symmetric copy of each position (not in the book)")
    parser.add_argument('--samples', type=whole_number(0, MAX_SAMPLES), default=samples, metavar='N',
                        help='train on N samples drawn from the window, each in a random symmetry, instead of '
                             f'epochs (rounded up to whole calls of {steps_per_execution} batches); 0 trains '
                             'epochs, as in the book (default: %(default)s)')
    parser.add_argument('--learning-rate', type=real_number(1e-7, 1.0), default=learning_rate, metavar='LR',
                        help="the training's step size (Adam's learning rate; epochs 50 and 80 halve it, as in "
                             'the book); a run that stopped improving may go on with a smaller one '
                             '(default: %(default)s, the book)')


def add_play_flag(parser):
    """What a saved model records as its playing strength, when that is not its self-play's search."""
    parser.add_argument('--play-sims', type=whole_number(1, MAX_SIMS), metavar='N',
                        help='simulations per move that the saved model records, which the programs that play it '
                             'search unless given --sims (default: what its self-play searched)')


def add_network_flags(parser, network, filters, blocks, width, layers, heads, margin_head=False):
    """The network of a new model (dual_network.py's DN_ constants)."""
    parser.add_argument('--network', choices=NETWORKS, default=network,
                        help='the network of a new model: book (the book\'s ResNet), resnet (with AlphaGo Zero\'s '
                             'heads), transformer, or transformer-dense (the Dense heads of the shogi Transformer article\'s baseline) '
                             '(default: %(default)s)')
    parser.add_argument('--filters', type=whole_number(1, MAX_WIDTH), default=filters,
                        help='book, resnet: filters per convolution (default: %(default)s)')
    parser.add_argument('--blocks', type=whole_number(0, MAX_DEPTH), default=blocks,
                        help='book, resnet: residual blocks (default: %(default)s)')
    parser.add_argument('--width', type=whole_number(1, MAX_WIDTH), default=width,
                        help='transformer: width of a token (default: %(default)s)')
    parser.add_argument('--layers', type=whole_number(0, MAX_DEPTH), default=layers,
                        help='transformer: encoder layers (default: %(default)s)')
    parser.add_argument('--heads', type=whole_number(1, MAX_WIDTH), default=heads,
                        help='transformer: attention heads, a divisor of the width (default: %(default)s)')
    if margin_head:  # the stages that train on self-play, which records the margins
        parser.add_argument('--margin-head', action='store_true',
                            help='games with a margin (discs, points): also learn the final margin, an auxiliary '
                                 'target that --margin-weight lets the search use')


def check_network_flags(args):
    if args.width % args.heads:
        raise UserError(f'--heads {args.heads} does not divide --width {args.width}: give a divisor of the width')


def network_arguments(args):
    """The network flags as the keyword arguments of dual_network() and describe_network()."""
    return {'network': args.network, 'filters': args.filters, 'residual_num': args.blocks, 'width': args.width,
            'layer_count': args.layers, 'heads': args.heads, 'margin_head': getattr(args, 'margin_head', False)}
