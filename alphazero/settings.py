"""Every setting of the project, one frozen dataclass per purpose (OpenSpiel's one Config, AlphaZero.jl's
typed parameters). A default is the book's constant (the stage script that owns it names it, as the
book does: self_play.py's SP_GAME_COUNT is SelfPlaySettings.games); a game's recipe
(games/NAME/recipe.py) replaces defaults, and the flags typed replace those (alphazero/cli/settings.py).

Each field's metadata is its flag: `--name` (`--no-name` for a setting that is on by default), its
help text and the check of its range; alphazero/cli/flags.py's add_settings_flags makes the flags
from the fields, so adding a setting is adding a field (and the code that uses it). A field with no
help is not a flag. The stages take the objects whole.
"""
from dataclasses import dataclass, field, fields, replace
from typing import Optional

from alphazero.errors import UserError
from alphazero.limits import (
    MAX_BATCH,
    MAX_CONSIDERED,
    MAX_DEPTH,
    MAX_GAMES,
    MAX_PARALLEL,
    MAX_SAMPLES,
    MAX_SIMS,
    MAX_WIDTH,
    file_path,
    real_number,
    whole_number,
)

C_PUCT = 1.0  # weight of the prior in the PUCT rule (the book's pv_mcts.py)
NETWORKS = ('book', 'resnet', 'transformer', 'transformer-dense')


def setting(default, help=None, check=None, unset=None, metavar=None, choices=None):
    """A field of a settings object. `help`: its flag's help (None: no flag); `check`: the argparse
    type that parses and range-checks it; `unset`: what a default of None means, for the help."""
    return field(default=default, metadata={'help': help, 'check': check, 'unset': unset, 'metavar': metavar,
                                            'choices': choices})


@dataclass(frozen=True)
class SearchSettings:
    """How every search runs (pv_mcts.py's, and beyond the book: alphazero/search/)."""
    sims: int = setting(50, "search simulations per move, the book's PV_EVALUATE_COUNT",
                        whole_number(1, MAX_SIMS), unset='what the model records, else 50')
    gumbel: int = setting(0, "Gumbel root search: consider M moves at the root, share the simulations among them "
                             "by sequential halving, and (in self-play) train on its improved policy; 0 is the "
                             "book's PUCT", whole_number(0, MAX_CONSIDERED), metavar='M')
    margin_weight: float = setting(0.0, 'a model with a margin head: the search values a position (1 - W) x value '
                                        '+ W x margin instead of by the value alone', real_number(0, 1), metavar='W')
    cache: bool = setting(True, 'evaluate every leaf with the network, even positions seen before')
    c_puct: float = setting(C_PUCT, "the weight of the prior in the arc value Q + U (U = C x P x sqrt(sum N) / (1 + N)), "
                                    "the book's C_PUCT", real_number(0.1, 10), metavar='C')
    first_play: Optional[float] = setting(None, "an unvisited move's Q in the search: its position's mean value "
                                                'less R (first-play urgency, as Leela Chess Zero and KataGo) '
                                                'instead of a draw', real_number(0, 2),
                                          unset="a draw, as in the book; a program that plays a model takes the reduction "
                                                "its model.json holds", metavar='R')
    solver: bool = setting(True, "do not settle positions with the game's solver before each search of a player or "
                                 "an engine (Othello's last 10 empties, Connect Four from 20 stones, a forced mate in "
                                 "either shogi: full shogi's df-pn, as dlshogi runs before each move) nor value a "
                                 "leaf that mates in one as won; self-play never does")

    def with_sims(self, sims):
        return replace(self, sims=sims)


@dataclass(frozen=True)
class ExplorationSettings:
    """How self-play tries moves its network would not, and what it records to learn from
    (self_play.py's SP_ constants)."""
    dirichlet: float = setting(0.0, 'mix Dirichlet(ALPHA) noise into the root priors of self-play, weight '
                                    '0.25; 0 is off, as in the book', real_number(0, 1000),
                               metavar='ALPHA')
    dirichlet_weight: float = setting(0.25)  # the noise's share of the root's priors (the AlphaZero paper)
    random_opening: int = setting(0, 'start each self-play game after 0 to N random moves, which are not recorded; '
                                     '0 is off, as in the book', whole_number(0, 1000), metavar='N')
    greedy_after: Optional[int] = setting(None, 'from the Nth move of a self-play game on, play the most visited '
                                                'move instead of sampling at the temperature; the policy target '
                                                'stays the visit distribution', whole_number(0, 1000),
                                          unset='never, as in the book', metavar='N')
    q_ratio: float = setting(0.0, "the value target of a self-play position: (1 - R) x the game's result + R x its "
                                  "search's value of the position (Leela Chess Zero's q_ratio); 0 is the result "
                                  'alone, as in the book', real_number(0, 1), metavar='R')
    peek: bool = setting(True, 'games with hidden information (pointothello): self-play searches only what a player '
                               'sees, as every other stage does (by default self-play may see it, as the '
                               "point-Othello page's does)")


@dataclass(frozen=True)
class SelfPlaySettings:
    """A self-play stage (self_play.py)."""
    games: int = setting(500, 'self-play games, SP_GAME_COUNT', whole_number(1, MAX_GAMES))
    temperature: float = setting(1.0, 'Boltzmann temperature on the visit counts', real_number(0, 100))
    parallel: int = setting(128, "self-play games played at once (their new leaves share one network call)",
                            whole_number(1, MAX_PARALLEL))


@dataclass(frozen=True)
class TrainingSettings:
    """A training stage (train_network.py's RN_ constants)."""
    epochs: int = setting(100, 'training epochs per stage, RN_EPOCHS', whole_number(1))
    batch_size: int = setting(128, 'samples per gradient step, RN_BATCH_SIZE', whole_number(1, MAX_BATCH))
    window: int = setting(1, 'train on the newest K history files; 1 is the book', whole_number(1), metavar='K')
    samples: int = setting(0, 'train on N samples drawn from the window, each in a random symmetry, instead of '
                              'epochs (rounded up to whole calls of the training step); 0 trains epochs, as in the '
                              'book', whole_number(0, MAX_SAMPLES), metavar='N')
    symmetries: bool = setting(False, 'also train on every symmetric copy of each position (not in the book)')
    learning_rate: float = setting(0.001, "the training's step size (Adam's learning rate; epochs 50 and 80 halve "
                                          'it, as in the book); a run that stopped improving may go on with a '
                                          'smaller one', real_number(1e-7, 1.0), metavar='LR')
    records: tuple = setting((), 'also train on the positions of this record file (train_records.py reads the same '
                                 'formats), drawn anew each stage, --records-share of the training positions',
                             file_path, metavar='FILE')
    records_share: float = setting(0.5, 'with --records: the share of each stage\'s training positions drawn from the '
                                        'records, beside the self-play window', real_number(0.0, 0.95), metavar='S')
    records_opening: int = setting(0, 'with --records: leave out the first K moves of each record game, the random '
                                      'opening of make_records.py --opening K', whole_number(0, 60), metavar='K')


@dataclass(frozen=True)
class NetworkSettings:
    """The network of a new model (dual_network.py's DN_ constants)."""
    network: str = setting('book', "the network of a new model: book (the book's ResNet), resnet (with AlphaGo "
                                   "Zero's heads), transformer, or transformer-dense (the Dense heads of the shogi "
                                   "Transformer article's baseline)", choices=NETWORKS)
    filters: int = setting(128, 'book, resnet: filters per convolution', whole_number(1, MAX_WIDTH))
    blocks: int = setting(16, 'book, resnet: residual blocks', whole_number(0, MAX_DEPTH))
    width: int = setting(64, 'transformer: width of a token', whole_number(1, MAX_WIDTH))
    layers: int = setting(4, 'transformer: encoder layers', whole_number(0, MAX_DEPTH))
    heads: int = setting(4, 'transformer: attention heads, a divisor of the width', whole_number(1, MAX_WIDTH))
    margin_head: bool = setting(False, 'games with a margin (discs, points): also learn the final margin, an '
                                       'auxiliary target that --margin-weight lets the search use')

    def __post_init__(self):
        if self.width % self.heads:
            raise UserError(f'--heads {self.heads} does not divide --width {self.width}: give a divisor of the width')


@dataclass(frozen=True)
class PlaySettings:
    """How a saved model plays: what it records for the programs that play it."""
    play_sims: Optional[int] = setting(None, 'simulations per move that the saved model records, which the '
                                             'programs that play it search unless given --sims',
                                       whole_number(1, MAX_SIMS), unset='what its self-play searched', metavar='N')


@dataclass(frozen=True)
class EvaluationSettings:
    """What evaluate_best_player.py measures (its EP_ constants): the best player against the game's
    fixed opponents, other models and engines."""
    games: int = setting(10)         # games against each opponent, EP_GAME_COUNT (flag: --games, --best-games)
    opening: int = setting(0, 'each game of a match starts after K random moves, and each opening is played once '
                              'with each colour; 0 starts from the start, as the book', whole_number(0, 1000),
                           metavar='K')
    engine_games: int = setting(40, 'games against each engine, EP_ENGINE_GAME_COUNT', whole_number(1, MAX_GAMES),
                                metavar='N')
    parallel: int = setting(32, 'games played at once; each engine game runs its own copy of the engine, so give a '
                                'slow engine about as many as there are cores', whole_number(1, MAX_PARALLEL))
    engines: tuple = setting(())     # engine commands (--engine)
    opponents: Optional[tuple] = setting(None)  # the game's fixed opponents to play (--opponent), None: all
    versus: tuple = setting(())      # other model files, each played `games` games (--versus)
    versus_sims: Optional[int] = setting(None, 'the --versus models search N simulations a move: more than the '
                                               'best player to compare at equal time a model that runs faster '
                                               '(an int8 twin)', whole_number(1, MAX_SIMS),
                                         unset='as many as the best player', metavar='N')
    settai: bool = setting(False)    # the best player plays settai (--settai)
    exact: bool = setting(True)      # a solvable game: also judge every move against the solved game
    save_to: Optional[str] = setting(None, 'write each game as a record in FOLDER as it ends, with each search\'s '
                                           'evaluation and expected line beside its moves (full shogi: KIF, as '
                                           'ShogiHome reads it; games of squares: a transcript)', file_path,
                                     unset='none', metavar='FOLDER')


@dataclass(frozen=True)
class CycleSettings:
    """The training cycle (train_cycle.py)."""
    cycles: int = setting(10, 'cycles in all, counting finished ones, TC_CYCLES', whole_number(1))
    minutes: Optional[float] = setting(None, 'also stop once the finished cycles took M minutes in all, counting '
                                             'resumed runs (the cycle under way is finished first)',
                                       real_number(0.01, 1e6), unset='no limit', metavar='M')
    cpu_minutes: Optional[float] = setting(None, 'the same in processor time used by this process, which other '
                                                 'programs on a busy machine do not count against it (for comparing '
                                                 'recipes at equal CPU time)', real_number(0.01, 1e6),
                                           unset='no limit', metavar='M')
    gate: bool = setting(True, 'the latest network always becomes the best player, as in the AlphaZero paper (the '
                               'gate games are still played and recorded)')
    eval_games: int = setting(10, 'games of latest vs best per cycle, EN_GAME_COUNT; 0 leaves them out when the gate '
                                  'is off', whole_number(0, MAX_GAMES))
    best_games: int = setting(10, 'games of best vs each fixed opponent, EP_GAME_COUNT', whole_number(1, MAX_GAMES))
    best_every: int = setting(1, 'play the fixed opponents every K cycles and in the last one', whole_number(1),
                              metavar='K')
    keep_every: int = setting(0, 'keep a copy of the best model every K cycles (kept/best-cycleNNNN.h5 beside '
                                 'best.h5), to measure later what more training gained; 0 keeps none',
                              whole_number(0), metavar='K')
    until_perfect: bool = setting(False, 'stop once the best player plays perfectly (games small enough to solve)')


@dataclass(frozen=True)
class Run:
    """Everything a training run (train_cycle.py) is trained with: one settings object per purpose."""
    network: NetworkSettings
    search: SearchSettings
    self_play: SelfPlaySettings
    exploration: ExplorationSettings
    training: TrainingSettings
    play: PlaySettings
    evaluation: EvaluationSettings
    cycle: CycleSettings


@dataclass(frozen=True)
class RunContext:
    """How a run runs, not what it learns: the inference backend (--backend), the random seed (--seed,
    None: unseeded), the device (--device) and the Ray workers' pool (--workers, None: this process)."""
    backend: str = 'auto'
    seed: Optional[int] = None
    device: str = 'cpu'
    pool: object = None

    def seed_of(self, step):
        """The seed of the run's `step`th part (a cycle), None when the run is unseeded."""
        return None if self.seed is None else self.seed + step


def flagged(cls):
    """The fields of a settings class that are flags."""
    return [f for f in fields(cls) if f.metadata['help']]
