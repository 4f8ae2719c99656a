"""Games on Ray workers (beyond the book; optional: only --workers N imports this, and Ray).

A WorkerPool starts N Ray actors, each running the batched search on its own onnxruntime session
with cpu_count / N threads. A stage's games are split into one chunk per worker, each chunk with its
own random seed, and the results come back in chunk order, so that with --seed the same number of
workers plays the same games. The learner ships each new ONNX model through Ray's object store
(workers never read its files). When a worker dies in the middle of a stage, its chunk is played
again, with the same seed, by a worker still alive: no game is lost or counted twice.

    ray start --head                      # on the first machine; prints the address to join
    ray start --address=HEAD_IP:6379      # on each of the others
    python train_cycle.py --game othello8 --workers 8 --ray-address HEAD_IP:6379
"""
import contextlib
import hashlib
import logging
import os
import random
from dataclasses import replace

import numpy as np

from alphazero import REPO
from alphazero.errors import UserError
from alphazero.game.registry import load_game
from alphazero.limits import MAX_WORKERS, whole_number
from alphazero.network.runtimes import OnnxNetwork, use_device
from alphazero.play.matches import play_match
from alphazero.play.agent import Agent, Style
from alphazero.play.players import FunctionPlayer
from alphazero.play.self_play_games import play_self_play

# The code the workers run: the project folder, sent by Ray to every machine (without data and tools).
# Ray reads these as .gitignore patterns: the leading / keeps alphazero/data and alphazero/records in
NOT_SENT = ['/' + name for name in ('node_modules', 'runs', 'model', 'data', 'records', 'pretrained', 'docs', 'tests',
                                    'web', 'bench')]  # and .git, .venv


def add_worker_flags(parser):
    parser.add_argument('--workers', type=whole_number(1, MAX_WORKERS), metavar='N',
                        help='play the games on N Ray workers (needs Ray: WITH_RAY=1 bash setup.sh) (default: in this process)')
    parser.add_argument('--ray-address', metavar='ADDRESS',
                        help='join the Ray cluster at ADDRESS (`ray start --head` prints it) (default: start Ray here)')


def worker_pool(args):
    """A WorkerPool for --workers, or None without the flag (then Ray is never imported)."""
    if args.workers is None:
        if args.ray_address:
            raise UserError('--ray-address needs --workers N')
        return None
    return WorkerPool(args.workers, args.ray_address, getattr(args, 'device', 'cpu'))


def import_ray():
    try:
        import ray
    except ImportError:
        raise UserError('--workers needs Ray: install it with WITH_RAY=1 bash setup.sh') from None
    return ray


# How often the learner asks the workers how far their chunks are, for its progress bar
PROGRESS_SECONDS = 2.0


class Tally:
    """A worker's stand-in for the progress bar that play_games updates: the games its chunk has
    finished and the moves played, which the learner asks for while the chunk plays."""

    def __init__(self):
        self.games = self.moves = 0

    def update(self, games):
        self.games += games

    def set_postfix_str(self, text):  # play_games says 'N moves'
        self.moves = int(text.split()[0])


class GameWorker:
    """One Ray actor: plays chunks of games with the model it was last sent, and says how far its
    chunk is (a second thread of the actor answers while the first plays)."""

    def __init__(self, threads, device):
        use_device(device)   # --device, checked on the worker's own machine
        self.threads = threads
        self.networks = {}   # the models sent, by hash: the latest two (latest and best)
        self.tally = Tally()

    # The model as sent: its hash, and its bytes (from the object store: a reference when it came
    # inside a match's models, fetched only when this worker has no session for it yet)
    def network_for(self, key, content):
        if key not in self.networks:
            if not isinstance(content, bytes):
                content = import_ray().get(content)
            self.networks = {k: v for k, v in list(self.networks.items())[-1:]}
            self.networks[key] = OnnxNetwork(content, threads=self.threads)
        return self.networks[key]

    # `count` games of the model against another model (opponent_key, opponent_content) or the
    # game's fixed player named `opponent_name`, after `openings`; the model moves first in even games.
    # Its points.
    def match(self, models, opponent_name, game_name, count, search, temperature, seed, openings):
        game = load_game(game_name)
        rng = np.random.default_rng(seed)
        random.seed(int(rng.integers(2 ** 32)))  # the fixed players and the deals draw from `random`

        def searcher(model):
            return Agent(game, self.network_for(*model), search, Style(temperature=temperature), rng)
        model, opponent_model = models
        opponent = FunctionPlayer(game.opponents()[opponent_name]) if opponent_name else searcher(opponent_model)
        try:
            return play_match(game, searcher(model), opponent, count, self.tally, openings)
        finally:
            self.tally = Tally()

    def self_play(self, key, content, game_name, plays, search, exploration, seed):
        try:
            return play_self_play(load_game(game_name), self.network_for(key, content), plays, search, exploration,
                                  np.random.default_rng(seed), self.tally)
        finally:
            self.tally = Tally()

    # The tally starts anew when a chunk ends, so that one asked before its next chunk begins says nothing
    def progress(self):
        return self.tally.games, self.tally.moves

    def pid(self):
        return os.getpid()


# Ray's start-up notes that ask nothing of the user: token authentication is on (as it should be),
# and .git, .venv and __pycache__ are not sent (nor would NOT_SENT send them)
class RayNotes(logging.Filter):
    NOTES = ('Token authentication is enabled for', 'Directory %r is now ignored by default')
    LOGGERS = ('ray._private.authentication.authentication_token_setup', 'ray._private.worker')

    def filter(self, record):
        return not str(record.msg).startswith(self.NOTES)


RAY_NOTES = RayNotes()


class WorkerPool:
    def __init__(self, workers, address=None, device='cpu'):
        ray = self.ray = import_ray()
        for name in RayNotes.LOGGERS:
            logging.getLogger(name).addFilter(RAY_NOTES)  # once: a logger keeps one copy of a filter
        if not ray.is_initialized():
            try:
                ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False,
                         runtime_env={'working_dir': REPO, 'excludes': NOT_SENT})
            except ConnectionError as error:
                raise UserError(f'cannot join the Ray cluster at {address} ({error}); start it with `ray start --head`') from None
        cpus = int(ray.cluster_resources().get('CPU', os.cpu_count() or 1))
        threads = max(1, cpus // workers)
        # Actors need no CPU of Ray's accounting: their threads are set here; spread them over the machines
        actor = ray.remote(num_cpus=0, scheduling_strategy='SPREAD', max_concurrency=2)(GameWorker)
        self.actors = [actor.remote(threads, device) for _ in range(workers)]
        self.workers, self.threads = workers, threads
        self.models = {}
        self.progress = None  # the bar of `showing`

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()

    def close(self):
        for actor in self.actors:
            self.ray.kill(actor)
        self.actors = []

    def share_model(self, onnx_path, slot=0):
        """Put a model into the object store once per version (two slots: a match has two models);
        workers get it from there by its hash."""
        with open(onnx_path, 'rb') as f:
            content = f.read()
        key = hashlib.sha256(content).hexdigest()
        if self.models.get(slot, (None,))[0] != key:
            self.models[slot] = (key, self.ray.put(content))
        return self.models[slot]

    @contextlib.contextmanager
    def showing(self, progress):
        """The games played inside are counted on `progress`, a tqdm bar: the games the workers have
        finished and the moves they have played."""
        self.progress = progress
        try:
            yield progress
        finally:
            self.progress = None

    def run(self, method, chunks, sizes):
        """Call `method` of a free actor with each chunk's arguments (chunk i plays sizes[i] games);
        results in chunk order. A chunk whose actor died goes back to the queue for the others."""
        ray, progress = self.ray, self.progress
        results, queue, pending, free = [None] * len(chunks), list(range(len(chunks))), {}, list(self.actors)
        tallies = {}  # chunk index -> (games finished, moves played), as its worker last said
        counted = progress.n if progress is not None else 0  # games of earlier calls on the same bar
        while queue or pending:
            while queue and free:
                index, actor = queue.pop(0), free.pop(0)
                pending[getattr(actor, method).remote(*chunks[index])] = (index, actor)
                tallies[index] = (0, 0)
            finished, _ = ray.wait(list(pending), num_returns=1, timeout=None if progress is None else PROGRESS_SECONDS)
            for done in finished:
                index, actor = pending.pop(done)
                try:
                    results[index] = ray.get(done)
                    free.append(actor)
                    tallies[index] = (sizes[index], tallies[index][1])
                except ray.exceptions.RayActorError:
                    self.actors.remove(actor)
                    queue.insert(0, index)
                    tallies[index] = (0, 0)  # played again from its start
                    if not self.actors:
                        raise UserError('every Ray worker died; see the Ray logs (/tmp/ray/session_latest/logs)') from None
            if progress is not None:
                self.show(progress, counted, pending, tallies)
        return results

    def show(self, progress, counted, pending, tallies):
        """Ask the busy workers how far their chunks are, and move the bar to the total."""
        asked = {index: actor.progress.remote() for index, actor in pending.values()}
        for index, reference in asked.items():
            try:
                tallies[index] = self.ray.get(reference)
            except self.ray.exceptions.RayActorError:
                pass  # the next wait finds the dead worker
        games, moves = (sum(column) for column in zip(*tallies.values()))
        progress.update(counted + games - progress.n)
        progress.set_postfix_str(f'{moves} moves')

    def self_play(self, game, onnx_path, plays, search, exploration, seed=None):
        """Self-play of plays.games games; the same (position, policy, value, margin) arrays and counts
        as play_self_play, the chunks concatenated in order."""
        key, content = self.share_model(onnx_path)
        count = plays.games
        sizes = [size for size in (count // self.workers + (i < count % self.workers) for i in range(self.workers)) if size]
        chunks = [(key, content, game.NAME, replace(plays, games=size), search, exploration,
                   None if seed is None else [seed, i])
                  for i, size in enumerate(sizes)]
        results = self.run('self_play', chunks, sizes)
        arrays = tuple(None if parts[0] is None else np.concatenate(parts)  # a game without margins has None
                       for parts in zip(*(arrays for arrays, _ in results)))
        evaluations = sum(c['evaluations'] for _, c in results)
        lookups = sum(c['lookups'] for _, c in results)
        return arrays, {'evaluations': evaluations, 'lookups': lookups,
                        'hit_rate': 1 - evaluations / lookups if lookups else 0.0}

    def match(self, game, onnx_path, opponent, count, search, temperature=0.0, seed=None, openings=None):
        """The model's points, game by game, against `opponent`: another .onnx file or the name of
        one of the game's fixed players; the model first in even games, game i after the moves
        openings[i], as alphazero/play/matches.py's play_match."""
        model, opponent_model, opponent_name = self.share_model(onnx_path), None, opponent
        if opponent.endswith('.onnx'):
            opponent_model, opponent_name = self.share_model(opponent, slot=1), None
        # Chunks of an even number of games, so that colours keep alternating and deals keep their pairs
        size = 2 * -(-count // (2 * self.workers))
        starts = range(0, count, size)
        sizes = [min(size, count - start) for start in starts]
        chunks = [((model, opponent_model), opponent_name, game.NAME, games, search, temperature,
                   None if seed is None else [seed, start], openings and openings[start:start + games])
                  for start, games in zip(starts, sizes)]
        return [point for points in self.run('match', chunks, sizes) for point in points]
