# ====================
# The dual network (the book's dual_network.py)
# ====================
# A ResNet that reads the board and answers twice: a policy (a probability for every move) and a
# value (the expected result for the side to move, from -1 to 1).
#
# Beyond the book, --network chooses among three networks with the same input and outputs:
#   book         the book's: the residual tower, then global average pooling and two Dense heads
#   resnet       the same tower with the heads of AlphaGo Zero (and of the point-Othello AI), which
#                keep the board's geometry: the policy from a 1x1 convolution to 2 planes, the value
#                from a 1x1 convolution to 1 plane, then Dense 64 with ReLU, then tanh
#   transformer  every square a token, a learned position embedding, encoder layers (self-attention
#                and a GELU feed-forward, each with layer normalisation and a residual connection);
#                in full shogi the article's 96 tokens (squares, hands, check: the game's TOKENS)
#   transformer-dense  the same with the heads of 「大規模言語モデルで将棋AIを作る その2」's baseline,
#                every token's numbers flattened into the Dense layers
# Every network is made of Keras' own layers only, so the saved file loads with a plain
# load_model(), and every stage, export.py and the book's API work with any of them.
#
# Beyond the book, --margin-head adds a third output to any of them, for games with a margin (discs,
# points): 'margin', the final margin for the side to move divided by the game's MARGIN_SCALE
# (tanh), learned from the value head's features as an auxiliary target (KataGo's score target).

import os

import numpy as np

from alphazero.cli.run import ArgumentParser, run
from alphazero.errors import UserError
from alphazero.network.keras_setup import quiet_keras
from alphazero.data.run_folder import hold_run_folder
from alphazero.network.model_file import save_model
from alphazero.cli.flags import add_settings_flags, settings_of
from alphazero.game.registry import add_game_flag, as_game, load_game
from alphazero.game.paths import model_path
from alphazero.limits import check_network
from alphazero.cli.settings import parse_game_args
from alphazero.settings import NetworkSettings

# Parameters (the book's; with the rest of the network's, they are the defaults of alphazero/settings.py's
# NetworkSettings)
DN_FILTERS = NetworkSettings.filters     # filters of every convolution: 128 (the AlphaZero paper: 256)
DN_RESIDUAL_NUM = NetworkSettings.blocks  # residual blocks: 16 (the paper: 19)
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


# The body: the first convolution (conv-BN-ReLU), then the residual blocks
def residual_tower(filters=DN_FILTERS, residual_num=DN_RESIDUAL_NUM):
    from keras import layers

    def f(x):
        x = conv(filters)(x)
        x = layers.BatchNormalization()(x)
        x = layers.Activation('relu')(x)
        for _ in range(residual_num):
            x = residual_block(filters)(x)
        return x
    return f


# The optional margin output, from the value head's features: [] without a margin head
def margin_output(features, margin_head):
    from keras import layers
    return [layers.Dense(1, activation='tanh', name='margin')(features)] if margin_head else []


# Build the network (not saved)
def build_dual_network(input_shape=DN_INPUT_SHAPE, output_size=DN_OUTPUT_SIZE,
                       filters=DN_FILTERS, residual_num=DN_RESIDUAL_NUM, margin_head=False):
    import keras
    from keras import layers, regularizers

    # Input, the first convolution and the residual blocks
    input = layers.Input(shape=input_shape)
    x = residual_tower(filters, residual_num)(input)

    # Pooling
    x = layers.GlobalAveragePooling2D()(x)

    # Policy output
    p = layers.Dense(output_size, kernel_regularizer=regularizers.l2(L2_WEIGHT), activation='softmax', name='pi')(x)

    # Value output
    v = layers.Dense(1, kernel_regularizer=regularizers.l2(L2_WEIGHT))(x)
    v = layers.Activation('tanh', name='v')(v)

    return keras.Model(inputs=input, outputs=[p, v, *margin_output(x, margin_head)])


# The residual tower with AlphaGo Zero's heads (not saved)
def build_resnet(input_shape, output_size, filters=DN_FILTERS, residual_num=DN_RESIDUAL_NUM, margin_head=False):
    import keras
    from keras import layers, regularizers

    # Input, the first convolution and the residual blocks, as in the book
    input = layers.Input(shape=input_shape)
    x = residual_tower(filters, residual_num)(input)

    # A 1x1 convolution to a few planes, batch normalisation and ReLU, before a head's Dense layers
    def planes(count):
        y = layers.Conv2D(count, 1, use_bias=False, kernel_initializer='he_normal',
                          kernel_regularizer=regularizers.l2(L2_WEIGHT))(x)
        y = layers.BatchNormalization()(y)
        return layers.Flatten()(layers.Activation('relu')(y))

    # Policy output: 2 planes, then a Dense layer over all their squares
    p = layers.Dense(output_size, kernel_regularizer=regularizers.l2(L2_WEIGHT), activation='softmax', name='pi')(planes(2))

    # Value output: 1 plane, Dense 64 with ReLU, Dense 1 with tanh
    features = layers.Dense(64, activation='relu', kernel_regularizer=regularizers.l2(L2_WEIGHT))(planes(1))
    v = layers.Dense(1, kernel_regularizer=regularizers.l2(L2_WEIGHT))(features)
    v = layers.Activation('tanh', name='v')(v)
    return keras.Model(inputs=input, outputs=[p, v, *margin_output(features, margin_head)])


# The tokens of a position, each the sum of the learned vectors of the words present in it (as
# PyTorch's EmbeddingBag with mode 'sum': a Dense layer without bias over a token's 0/1 words).
# Without the game's TOKENS every square is a token of all its planes; with them (full shogi) the
# first planes are the squares' words and each group of the other planes, the same on every square,
# is one more token (a hand, the check). Returns the tokens and their count
def token_embeddings(input, input_shape, tokens, width):
    from keras import layers
    rows, columns, channels = input_shape
    squares = rows * columns
    by_square = layers.Reshape((squares, channels))(input)
    if tokens is None:
        return layers.Dense(width)(by_square), squares
    square_planes, groups = tokens

    # Keras has no slicing layer that saves without code of ours: Cropping1D on the planes axis cuts
    # out a range of planes, and then a range of squares
    by_plane = layers.Permute((2, 1))(by_square)

    def words(first, count, square_count):
        cut = layers.Cropping1D((first, channels - first - count))(by_plane)
        return layers.Cropping1D((0, squares - square_count))(layers.Permute((2, 1))(cut))
    embedded = [layers.Dense(width, use_bias=False)(words(0, square_planes, squares))]
    embedded += [layers.Dense(width, use_bias=False)(words(first, count, 1)) for first, count in groups]
    return layers.Concatenate(axis=1)(embedded), squares + len(groups)


# A Transformer over the tokens of the board (not saved). The policy head `head`: 'conv' makes 2
# numbers per token (a 1x1 convolution over the tokens) and a Dense layer over all of them; 'dense'
# is the article's baseline, one Dense layer over all the tokens' numbers (and for the value, Dense
# 256 without bias, batch normalisation, ReLU)
def build_transformer(input_shape, output_size, width=NetworkSettings.width, layer_count=NetworkSettings.layers,
                      heads=NetworkSettings.heads, tokens=None,
                      head='conv', margin_head=False):
    import keras
    from keras import layers

    # The tokens, and a learned position embedding added to every token. (Keras has no
    # position-embedding layer that saves without code of ours; a Dense layer applied to a constant
    # input of ones is a learned table all the same.)
    input = layers.Input(shape=input_shape)
    x, token_count = token_embeddings(input, input_shape, tokens, width)
    ones = layers.Rescaling(0.0, offset=1.0)(layers.GlobalAveragePooling2D()(input))
    table = layers.Dense(token_count * width, use_bias=False, kernel_initializer='random_normal')(ones)
    x = layers.Add()([x, layers.Reshape((token_count, width))(table)])

    # Encoder layers (pre-norm): self-attention, then a feed-forward layer with GELU, each added back
    for _ in range(layer_count):
        y = layers.LayerNormalization()(x)
        x = layers.Add()([x, layers.MultiHeadAttention(heads, width // heads)(y, y)])
        y = layers.LayerNormalization()(x)
        y = layers.Dense(2 * width, activation='gelu')(y)
        x = layers.Add()([x, layers.Dense(width)(y)])
    x = layers.LayerNormalization()(x)

    if head == 'dense':
        # The article's heads: every token's numbers flattened into Dense layers
        flat = layers.Flatten()(x)
        p = layers.Dense(output_size, activation='softmax', name='pi')(flat)
        features = layers.Dense(256, use_bias=False)(flat)
        features = layers.Activation('relu')(layers.BatchNormalization()(features))
        v = layers.Dense(1, activation='tanh', name='v')(features)
        return keras.Model(inputs=input, outputs=[p, v, *margin_output(features, margin_head)])

    # Policy output: 2 numbers per token, then a Dense layer over all of them (any action space)
    p = layers.Dense(output_size, activation='softmax', name='pi')(layers.Flatten()(layers.Dense(2)(x)))

    # Value output: the average token, Dense 64 with ReLU, Dense 1 with tanh
    features = layers.Dense(64, activation='relu')(layers.GlobalAveragePooling1D()(x))
    v = layers.Dense(1, activation='tanh', name='v')(features)
    return keras.Model(inputs=input, outputs=[p, v, *margin_output(features, margin_head)])


# Build the network that `settings` (NetworkSettings) describe for a game (not saved)
def build_network(game, settings=NetworkSettings()):
    quiet_keras()
    if settings.margin_head and not game.MARGIN_SCALE:
        raise UserError(f'--margin-head: {game.NAME} has no margin to learn (games with one: the Othellos and point-Othello)')
    if settings.network.startswith('transformer'):
        return build_transformer(game.INPUT_SHAPE, game.ACTION_COUNT, settings.width, settings.layers, settings.heads,
                                 game.TOKENS, 'dense' if settings.network == 'transformer-dense' else 'conv',
                                 settings.margin_head)
    build = build_resnet if settings.network == 'resnet' else build_dual_network
    return build(game.INPUT_SHAPE, game.ACTION_COUNT, settings.filters, settings.blocks, settings.margin_head)


# A trained residual network made deeper (beyond the book: Net2DeeperNet, Chen et al. 2016): `more`
# residual blocks added after its last one, each starting as the identity (its last batch
# normalisation's scale and shift zero, so the block adds nothing to its shortcut), every other weight
# copied. The deeper model plays exactly as the trained one did and learns with the new blocks'
# capacity (not saved)
def deepened(model, game, more):
    from keras import layers
    kinds = {type(layer) for layer in model.layers}
    if layers.MultiHeadAttention in kinds or layers.Add not in kinds:
        raise UserError('--deepen adds residual blocks to a residual network (book or resnet): this model has none')
    blocks = sum(isinstance(layer, layers.Add) for layer in model.layers)
    first = next(layer for layer in model.layers if isinstance(layer, layers.Conv2D))
    settings = NetworkSettings(network='book' if layers.GlobalAveragePooling2D in kinds else 'resnet',
                               filters=first.filters, blocks=blocks + more,
                               margin_head='margin' in model.output_names)
    deeper = build_network(game, settings)
    old, new = ([layer for layer in m.layers if layer.weights] for m in (model, deeper))
    tower = 2 + 4 * blocks  # the first convolution and its normalisation, then four weighted layers a block
    pairs = list(zip(old[:tower], new[:tower])) + list(zip(old[tower:], new[tower + 4 * more:]))
    for source, target in pairs:
        target.set_weights(source.get_weights())
    for last in new[tower + 3:tower + 4 * more:4]:  # each new block's second normalisation
        last.gamma.assign(np.zeros(last.gamma.shape))
        last.beta.assign(np.zeros(last.beta.shape))
    print(f'deepened: {blocks} to {blocks + more} residual blocks, {deeper.count_params():,} parameters')
    return deeper


# What a network is, in words
def describe_network(settings):
    margin = ', a margin head' if settings.margin_head else ''
    if settings.network.startswith('transformer'):
        return f'{settings.network}: {settings.layers} layers, width {settings.width}, {settings.heads} heads{margin}'
    return f'{settings.network}: {settings.blocks} blocks, {settings.filters} filters{margin}'


# Create and save the best player's network, unless it exists; returns True when it made one
# (beyond the book: the network that `settings` describe)
def dual_network(game=None, settings=NetworkSettings()):
    game = as_game(game)
    path = model_path(game, 'best.h5')

    # Nothing to do when the model exists
    if os.path.exists(path):
        return False

    # Build it for the game's board and moves, and save it
    save_model(build_network(game, settings), path)
    return True


def parse_args(argv=None):
    parser = ArgumentParser(description="Create the untrained dual network as the first best player "
                                                 "(does nothing when it exists).")
    add_game_flag(parser)
    add_settings_flags(parser, NetworkSettings)
    args = parse_game_args(parser, argv, ('network',))
    check_network(load_game(args.game), settings_of(NetworkSettings, args))
    return args


def main():
    args = parse_args()
    game = load_game(args.game)
    hold_run_folder(game)
    path = model_path(game, 'best.h5')
    settings = settings_of(NetworkSettings, args)
    if dual_network(game, settings):
        print(f'created {path} ({describe_network(settings)})')
    else:
        print(f'{path} exists; nothing to do (delete it to start over)')


if __name__ == '__main__':
    run(main)
