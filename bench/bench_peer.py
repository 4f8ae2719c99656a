"""Self-play speed beside a peer: pgx + mctx (JAX) against our batched search, side by side in one run.

The same game (8x8 Othello), the same network shape (the shipped model's: a ResNet of 64 filters x
5 blocks with AlphaGo Zero's heads, random weights), the same simulations per move and the same
number of games played at once. The peer is the usual JAX way: pgx's Othello, a plain-JAX copy of
the network, mctx's muzero_policy (PUCT) with pgx's `step` as the model, all compiled by XLA into one
call per move for every game at once. Ours is self_play.py's engine on onnxruntime, float32 and the
int8 twin (alphazero/network/quantize.py). The three take turns, run after run.

Prints positions/s (moves played, every game counted) of each, the median of --repeats timed runs
after a warm-up (JAX's compile is not counted), and the ratios to the peer; --out keeps every run's
figures in a JSON file (docs/speed/peer.json, which docs/make_tables.py makes speed.md's table from).
Needs the peer's packages: WITH_PEER=1 bash setup.sh (pgx, mctx, jax's CPU build).
Run: .venv/bin/python bench/bench_peer.py [--sims 50 --games 64 --moves 60 --repeats 3 --out FILE]
"""
import argparse
import importlib.metadata
import os
import statistics
import sys
import tempfile
import time

sys.path[:0] = [os.path.dirname(os.path.dirname(os.path.abspath(__file__))), os.path.dirname(os.path.abspath(__file__))]
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

import numpy as np  # noqa: E402

from alphazero.files import write_json  # noqa: E402
from alphazero.game.registry import load_game  # noqa: E402
from alphazero.network.model_file import save_model  # noqa: E402
from alphazero.network.quantize import quantize  # noqa: E402
from alphazero.network.runtimes import OnnxNetwork  # noqa: E402
from alphazero.play.loop import play_games  # noqa: E402
from alphazero.play.players import MctsPlayer  # noqa: E402
from alphazero.search.evaluator import Evaluator  # noqa: E402
from alphazero.settings import NetworkSettings, SearchSettings  # noqa: E402
from bench_int8 import processor  # noqa: E402
from dual_network import build_network  # noqa: E402
from export import export  # noqa: E402


# ----- the peer: pgx's Othello, the network in plain JAX, mctx's search -----
def peer_network(filters, blocks, rng):
    """Random weights of the ResNet (convolutions with their batch normalisation folded into a bias)."""
    import jax.numpy as jnp

    def conv(size, inputs, outputs):
        return (jnp.asarray(rng.normal(0, np.sqrt(2 / (size * size * inputs)), (size, size, inputs, outputs)), jnp.float32),
                jnp.zeros(outputs, jnp.float32))

    def dense(inputs, outputs):
        return jnp.asarray(rng.normal(0, np.sqrt(1 / inputs), (inputs, outputs)), jnp.float32), jnp.zeros(outputs, jnp.float32)
    return {'stem': conv(3, 2, filters), 'blocks': [(conv(3, filters, filters), conv(3, filters, filters)) for _ in range(blocks)],
            'policy_planes': conv(1, filters, 2), 'policy': dense(2 * 64, 65),
            'value_plane': conv(1, filters, 1), 'value_hidden': dense(64, 64), 'value': dense(64, 1)}


def peer_forward(params, observation):
    """(policy logits, value) of a batch of pgx observations (N, 8, 8, 2)."""
    import jax
    import jax.numpy as jnp

    def conv(x, weights):
        kernel, bias = weights
        return jax.lax.conv_general_dilated(x, kernel, (1, 1), 'SAME', dimension_numbers=('NHWC', 'HWIO', 'NHWC')) + bias
    x = jax.nn.relu(conv(observation.astype(jnp.float32), params['stem']))
    for first, second in params['blocks']:
        x = jax.nn.relu(x + conv(jax.nn.relu(conv(x, first)), second))
    p = jax.nn.relu(conv(x, params['policy_planes'])).reshape(len(x), -1)
    logits = p @ params['policy'][0] + params['policy'][1]
    v = jax.nn.relu(conv(x, params['value_plane'])).reshape(len(x), -1)
    v = jax.nn.relu(v @ params['value_hidden'][0] + params['value_hidden'][1])
    return logits, jnp.tanh(v @ params['value'][0] + params['value'][1]).reshape(-1)


def peer_self_play(filters, blocks, sims, games, moves):
    """run(k): positions/s of pgx + mctx over `moves` moves of `games` games at once (a finished
    game starts again), compiled by a first run here."""
    import jax
    import jax.numpy as jnp
    import mctx
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make('othello')
    params = peer_network(filters, blocks, np.random.default_rng(0))

    def recurrent_fn(params, key, action, state):
        mover = state.current_player
        state = jax.vmap(env.step)(state, action)
        logits, value = peer_forward(params, state.observation)
        logits = jnp.where(state.legal_action_mask, logits, jnp.finfo(logits.dtype).min)
        reward = state.rewards[jnp.arange(len(mover)), mover]
        value = jnp.where(state.terminated, 0.0, value)
        discount = jnp.where(state.terminated, 0.0, -1.0)  # the next mover is the opponent
        return mctx.RecurrentFnOutput(reward=reward, discount=discount, prior_logits=logits, value=value), state

    @jax.jit
    def move(state, key):
        key_search, key_step = jax.random.split(key)
        logits, value = peer_forward(params, state.observation)
        root = mctx.RootFnOutput(prior_logits=logits, value=value, embedding=state)
        output = mctx.muzero_policy(params, key_search, root, recurrent_fn, num_simulations=sims,
                                    invalid_actions=~state.legal_action_mask)
        keys = jax.random.split(key_step, len(output.action))
        return jax.vmap(auto_reset(env.step, env.init))(state, output.action, keys)

    def run(k):
        key = jax.random.PRNGKey(k)
        state = jax.vmap(env.init)(jax.random.split(key, games))
        start = time.perf_counter()
        for _ in range(moves):
            key, step = jax.random.split(key)
            state = move(state, step)
        jax.block_until_ready(state)
        return games * moves / (time.perf_counter() - start)
    run(0)  # compiles
    return run


# ----- ours -----
def our_self_play(network, game, sims, games):
    """run(k): positions/s of self-play's engine over `games` whole games at once, warmed up by a
    first run here."""
    def run(k):
        player = MctsPlayer(Evaluator(network, False), SearchSettings(sims=sims), 1.0, np.random.default_rng(k))
        start = time.perf_counter()
        results = play_games(game.State, [(player, player)] * games, games, record=True)
        return sum(len(r.records) for r in results) / (time.perf_counter() - start)
    run(0)
    return run


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--sims', type=int, default=50)
    parser.add_argument('--games', type=int, default=64, help='games played at once, by both')
    parser.add_argument('--moves', type=int, default=60, help="the peer's moves per timed run (a game's length)")
    parser.add_argument('--repeats', type=int, default=3)
    parser.add_argument('--filters', type=int, default=64)
    parser.add_argument('--blocks', type=int, default=5)
    parser.add_argument('--out', help='also write the figures to this JSON file')
    args = parser.parse_args()
    try:
        import mctx  # noqa: F401
        import pgx  # noqa: F401
    except ImportError as error:
        sys.exit(f'the peer needs pgx and mctx ({error}): WITH_PEER=1 bash setup.sh')

    import keras
    game = load_game('othello8')
    keras.utils.set_random_seed(0)
    folder = tempfile.mkdtemp()
    save_model(build_network(game, NetworkSettings('resnet', filters=args.filters, blocks=args.blocks)),
               os.path.join(folder, 'best.h5'))
    export(os.path.join(folder, 'best.h5'), os.path.join(folder, 'best.onnx'), game)
    quantize(os.path.join(folder, 'best.onnx'), game, os.path.join(folder, 'best.int8.onnx'))
    print(f'8x8 Othello, resnet {args.filters} x {args.blocks}, {args.sims} simulations a move, {args.games} games at '
          f'once; {os.cpu_count()} CPUs; median of {args.repeats} runs')

    runners = {'pgx + mctx (JAX, XLA)': peer_self_play(args.filters, args.blocks, args.sims, args.games, args.moves),
               'ours, onnxruntime float32': our_self_play(OnnxNetwork(os.path.join(folder, 'best.onnx')), game,
                                                          args.sims, args.games),
               'ours, onnxruntime int8': our_self_play(OnnxNetwork(os.path.join(folder, 'best.int8.onnx')), game,
                                                       args.sims, args.games)}
    runs = {name: [] for name in runners}
    for k in range(1, args.repeats + 1):  # in turns, so that each meets what else the machine runs alike
        for name, run in runners.items():
            runs[name].append(run(k))
    peer = runs['pgx + mctx (JAX, XLA)']
    print(f'{"":42}{"positions/s":>12}{"slowest":>9}{"to the peer":>13}')
    for name, rates in runs.items():
        rate = statistics.median(rates)
        print(f'{name:42}{rate:12.1f}{min(rates):9.1f}{rate / statistics.median(peer):12.2f}x')
    if args.out:
        write_json(args.out, {'game': 'othello8', 'network': f'resnet {args.filters} x {args.blocks}', 'sims': args.sims,
                              'games': args.games, 'cpus': os.cpu_count(), 'processor': ' with '.join([processor()[0], ', '.join(processor()[1])]),
                              'versions': {name: importlib.metadata.version(name) for name in ('jax', 'pgx', 'mctx', 'onnxruntime')},
                              'runs': runs}, indent=1)


if __name__ == '__main__':
    main()
