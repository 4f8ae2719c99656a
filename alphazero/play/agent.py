"""The AI player, put together in one place.

`load_agent(game, AgentSpec(...))` is how every front end (the window, the terminal, the page's
server), engine (GTP, USI) and match runner gets its player: it alone loads the model, resolves its
simulations (asked for, else what the model records, else the book's 50) and its level, and
composes the policy or the search, settai mode and the game's solvers. Self-play, the Ray workers
and the exact judge already hold a network; they compose theirs with `Agent(game, network, ...)`.

An Agent is a Player (alphazero/play/loop.py): `choose(states, live_games)` answers many games at
once. `analyse(state)` searches one position for a person or a GUI: its lines with their values.
"""
from dataclasses import dataclass, replace
from typing import Optional

import numpy as np

from alphazero.game.paths import playing_model_path
from alphazero.game.registry import as_game
from alphazero.game.solved import Solved, played_out
from alphazero.limits import check_search
from alphazero.network.load import load_network
from alphazero.network.model_file import playing_sims
from alphazero.play.levels import Level, first_play_words, measured_first_play, playing_level
from alphazero.play.loop import Player
from alphazero.play.players import MctsPlayer, PolicyPlayer, SolvingPlayer, policy_choice
from alphazero.play.settai import settai_for
from alphazero.search.deadline import Deadline
from alphazero.search.evaluator import Evaluator, KnownValues
from alphazero.search.search import search_roots
from alphazero.settings import ExplorationSettings, SearchSettings


@dataclass(frozen=True)
class AgentSpec:
    """What a front end asks of its AI (the flags --model, --sims, --level, --settai, --backend and the
    search settings)."""
    model: Optional[str] = None     # a model file, .h5 or .onnx; None: the game's best model, else the shipped one
    sims: Optional[int] = None      # simulations per move at full strength; None: what the model records, else 50
    level: Optional[int] = None     # a level of the model's (1 the weakest); None: full strength
    settai: bool = False            # settai mode (接待): a close game, not a win
    search: SearchSettings = SearchSettings()  # how it searches (its sims are replaced by the resolved number)
    temperature: float = 0.0        # 0: the most visited move; above: sampled from the visits
    backend: str = 'auto'           # load_network's
    seed: Optional[int] = None
    with_lines: bool = False        # each choice also holds the search's principal line (records keep it)


@dataclass(frozen=True)
class Style:
    """How an agent plays: `level` (alphazero/play/levels.py's Level: its policy alone, or its own
    number of simulations; None: the search's simulations at `temperature`), `settai` (a close game,
    not a win), self-play's `exploration` (root noise, greedy_after) and `peek` (a game with hidden
    information searched whole), and `with_lines` (each choice also holds the search's principal line,
    which records keep)."""
    level: Optional[Level] = None
    settai: bool = False
    temperature: float = 0.0
    exploration: ExplorationSettings = ExplorationSettings()
    peek: bool = False
    with_lines: bool = False


@dataclass(frozen=True)
class Analysis:
    """A position analysed: `lines` [(line, value)], the principal line first, then the lines of the
    other searched root moves from the best value down (each the most visited moves below it), each
    value for the side to move; `solved` the solver's exact result when it settled the position (then
    the one line is its line)."""
    lines: list
    solved: Optional[Solved] = None


class Agent(Player):
    """A network playing `game`: `search` (SearchSettings) holds the simulations of full strength, and
    `search.solver` puts the game's solver before each search and values a leaf the game knows (a mate
    in one) without the network; `style` (Style) says how it plays; `stop` (an engine's
    threading.Event) cuts a search short. `evaluator`: one to share (its cache) with another agent of
    the same network and search."""
    description, why = '', ''  # what load_agent found: the model, and where its simulations come from
    levels = ()                # all the model's levels (load_agent's), which a GUI may choose from
    sims_asked = False         # its simulations were asked for (--sims), not the model's own

    def __init__(self, game, network, search=SearchSettings(), style=Style(), rng=None, stop=None, evaluator=None):
        self.game, self.network, self.search, self.style = as_game(game), network, search, style
        game = self.game
        self.level = style.level or Level(0, search.sims, style.temperature)
        self.settai = style.settai
        self.rng = rng if rng is not None else np.random.default_rng()
        self.stop = stop
        if evaluator is None:
            evaluator = Evaluator(network, search.cache)
            if game.known_value and search.solver:
                evaluator = KnownValues(evaluator, game.known_value)
        self.evaluator = evaluator
        self.player = self.compose()

    def compose(self):
        """The player: the policy alone at a level of 0 simulations, else the search (settai's at
        settai mode), after the game's solver when it has one and the search asks for it."""
        level, game = self.level, self.game
        if level.simulations == 0 and not self.settai:
            return PolicyPlayer(self.evaluator, level.temperature, self.rng)
        searcher = MctsPlayer(self.evaluator, self.search.with_sims(max(1, level.simulations)), level.temperature,
                              self.rng, self.style.exploration, None if self.style.peek else game.determinize,
                              settai_for(game, self.settai), self.stop)
        searcher.with_lines = self.style.with_lines
        return SolvingPlayer(searcher, game.solve) if game.solve and self.search.solver else searcher

    def replaced(self, **changes):
        """The same model at other settings (a Style's fields, `search`, `rng` or `stop`), its network
        (and, with the same search settings, its evaluator and cache) shared: a GUI's setoption, a
        ladder's levels."""
        style = {key: changes.pop(key) for key in list(changes) if key in Style.__dataclass_fields__}
        given = {'search': self.search, 'rng': self.rng, 'stop': self.stop, **changes}
        if 'search' not in changes:
            given['evaluator'] = self.evaluator
        agent = type(self)(self.game, self.network, style=replace(self.style, **style), **given)
        agent.description, agent.why, agent.levels, agent.sims_asked = (self.description, self.why, self.levels,
                                                                         self.sims_asked)
        return agent

    @property
    def sims(self):
        """Simulations per move at full strength."""
        return self.search.sims

    def choose(self, states, live_games=None):
        return self.player.choose(states, live_games)

    def analyse(self, state, sims=None, stop=None, progress=None, multipv=1, solve=True, deadline=None):
        """The Analysis of `state`: the game's solver first (when `solve`, it has one and the search asks
        for it); else at a policy level the policy's move and the network's value, in settai mode
        settai's move (its searches of every move included) and the network's value, else a search of
        `sims` simulations (the level's when None), `progress(tree, simulations)` called after each
        simulation, with up to `multipv` lines. A search ends early when `stop` is set or the clock
        reaches `deadline` (time.monotonic()), after the simulation under way."""
        if deadline is not None:
            stop = Deadline(stop, deadline)
        if solve and self.game.solve and self.search.solver:
            solved = self.game.solve(state)
            if solved is not None:
                solved = played_out(self.game.solve, state, solved)
                return Analysis([(solved.line, float(solved.value))], solved)
        if self.settai:
            player = self.replaced(stop=stop).player
            return Analysis([([player.choose([state])[0][0]], self.network_value(state))])
        if not self.level.simulations:
            return Analysis([([self.policy_move(state, self.level.temperature)], self.network_value(state))])
        search = self.search.with_sims(sims or self.level.simulations)
        result = search_roots(self.evaluator, [state], search, stop=stop, progress=progress)
        line, value = result.lines[0]
        if not line:  # stopped before its first simulation: the policy's most likely move
            return Analysis([([self.policy_move(state, 0.0)], self.network_value(state))])
        if result.action is not None and line[:1] != [result.action[0]]:  # Gumbel chose another move
            chosen = int(result.action[0])
            line, value = [chosen], float(result.q[0, chosen])
        visits, q = result.visits[0], result.q[0]
        others = sorted((a for a in state.legal_actions() if visits[a] and a != line[0]), key=lambda a: -q[a])
        return Analysis([(list(line), float(value))] + [result.tree.principal_line(0, a) for a in others[:multipv - 1]])

    def policy_move(self, state, temperature):
        policies, _ = self.evaluator([state])
        return policy_choice(state, policies[0], temperature, self.rng)

    def network_value(self, state):
        return float(self.evaluator([state])[1][0])


def playing_search(search, model_path):
    """The search settings a model plays with: those asked for, the first-play reduction (when not
    asked for) the one measured for the model (its model.json's), else the book's draw."""
    if search.first_play is not None:
        return search
    return replace(search, first_play=measured_first_play(model_path))


def load_agent(game, spec=AgentSpec(), stop=None):
    """The Agent of `spec` (AgentSpec): its model loaded (spec.model, else the game's best model, else the
    shipped one) on spec.backend, at its simulations and level."""
    path = spec.model or playing_model_path(game)
    network, description = load_network(path, game, spec.backend)
    sims, why = playing_sims(spec.sims, path)
    check_search(game, sims)
    level, levels = playing_level(path, sims, spec.level)
    if spec.level is None:  # full strength, at the temperature asked for
        level = replace(level, temperature=spec.temperature)
    search = playing_search(spec.search, path)
    description += first_play_words(search.first_play)
    agent = Agent(game, network, replace(search, sims=sims), Style(level, spec.settai, with_lines=spec.with_lines),
                  np.random.default_rng(spec.seed), stop)
    agent.description, agent.why, agent.levels, agent.sims_asked = description, why, levels, spec.sims is not None
    return agent
