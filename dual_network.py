# ====================
# The dual network (the book's dual_network.py)
# ====================
# A ResNet that reads the board and answers twice: a policy (a probability for every move) and a
# value (the expected result for the side to move, from -1 to 1).

import argparse
import os

from alphazero.cli import UserError, run
from alphazero.files import save_model
from alphazero.games import add_game_flag, load_game, model_path, parse_game_args

# Parameters
DN_FILTERS = 128        # filters of every convolution (the AlphaZero paper: 256)
DN_RESIDUAL_NUM = 16    # residual blocks (the paper: 19)
DN_INPUT_SHAPE = (3, 3, 2)  # tic-tac-toe's input; other games bring their own (game.INPUT_SHAPE)
DN_OUTPUT_SIZE = 9          # tic-tac-toe's moves; other games bring their own (game.ACTION_COUNT)
L2_WEIGHT = 0.0005      # weight decay on every kernel


# A 3x3 convolution without bias (the batch normalisation after it has one)
def conv(filters):
    from keras import layers, regularizers
    return layers.Conv2D(filters, 3, padding='same', use_bias=False,
                         kernel_initializer='he_normal', kernel_regularizer=regularizers.l2(L2_WEIGHT))


# A residual block: conv-BN-ReLU-conv-BN, add the shortcut, ReLU
def residual_block(filters=DN_FILTERS):
    from keras import layers

    def f(x):
        sc = x
        x = conv(filters)(x)
        x = layers.BatchNormalization()(x)
        x = layers.Activation('relu')(x)
        x = conv(filters)(x)
        x = layers.BatchNormalization()(x)
        x = layers.Add()([x, sc])
        x = layers.Activation('relu')(x)
        return x
    return f


# Build the network (not saved)
def build_dual_network(input_shape=DN_INPUT_SHAPE, output_size=DN_OUTPUT_SIZE,
                       filters=DN_FILTERS, residual_num=DN_RESIDUAL_NUM):
    import keras
    from keras import layers, regularizers

    # Input and the first convolution
    input = layers.Input(shape=input_shape)
    x = conv(filters)(input)
    x = layers.BatchNormalization()(x)
    x = layers.Activation('relu')(x)

    # Residual blocks
    for _ in range(residual_num):
        x = residual_block(filters)(x)

    # Pooling
    x = layers.GlobalAveragePooling2D()(x)

    # Policy output
    p = layers.Dense(output_size, kernel_regularizer=regularizers.l2(L2_WEIGHT), activation='softmax', name='pi')(x)

    # Value output
    v = layers.Dense(1, kernel_regularizer=regularizers.l2(L2_WEIGHT))(x)
    v = layers.Activation('tanh', name='v')(v)

    return keras.Model(inputs=input, outputs=[p, v])


# Create and save the best player's network, unless it exists; returns True when it made one
def dual_network(game=None, filters=DN_FILTERS, residual_num=DN_RESIDUAL_NUM):
    game = game or load_game()
    path = model_path(game, 'best.h5')

    # Nothing to do when the model exists
    if os.path.exists(path):
        return False

    # Build it for the game's board and moves, and save it
    model = build_dual_network(game.INPUT_SHAPE, game.ACTION_COUNT, filters, residual_num)
    save_model(model, path)
    return True


def add_network_flags(parser):
    parser.add_argument('--filters', type=int, default=DN_FILTERS, help='filters per convolution (default: %(default)s)')
    parser.add_argument('--blocks', type=int, default=DN_RESIDUAL_NUM, help='residual blocks (default: %(default)s)')


def check_network_flags(args):
    if args.filters < 1 or args.blocks < 0:
        raise UserError('--filters must be at least 1 and --blocks at least 0')


def main():
    parser = argparse.ArgumentParser(description="Create the untrained dual network as the first best player "
                                                 "(does nothing when it exists).")
    add_game_flag(parser)
    add_network_flags(parser)
    args = parse_game_args(parser)
    check_network_flags(args)
    game = load_game(args.game)
    path = model_path(game, 'best.h5')
    if dual_network(game, args.filters, args.blocks):
        print(f'created {path} ({args.blocks} blocks, {args.filters} filters)')
    else:
        print(f'{path} exists; nothing to do (delete it to start over)')


if __name__ == '__main__':
    run(main)
