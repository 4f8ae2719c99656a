"""Handicap games of full shogi (駒落ち): how a stronger player gives a game to a weaker one.

The stronger side, 上手 (uwate, 後手's pieces), plays without some of its pieces and moves first;
the weaker side, 下手 (shitate), keeps the whole army. KIF names each handicap in its 手合割 line;
its records and results call the sides 上手 and 下手 instead of 後手 and 先手.
"""

START_BOARD = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL'

# The handicaps by their names in KIF's 手合割 line: the squares of 上手's pieces taken off (USI
# squares: 1a is its left lance, 9a its right one, 2b its bishop, 8b its rook, 2a and 8a its
# knights, 3a and 7a its silvers, 4a and 6a its golds), and the name in English
REMOVED = {
    '香落ち': (('1a',), 'lance'),
    '右香落ち': (('9a',), 'right lance'),
    '角落ち': (('2b',), 'bishop'),
    '飛車落ち': (('8b',), 'rook'),
    '飛香落ち': (('8b', '1a'), 'rook and lance'),
    '二枚落ち': (('8b', '2b'), 'two pieces'),
    '四枚落ち': (('8b', '2b', '1a', '9a'), 'four pieces'),
    '六枚落ち': (('8b', '2b', '1a', '9a', '2a', '8a'), 'six pieces'),
    '八枚落ち': (('8b', '2b', '1a', '9a', '2a', '8a', '3a', '7a'), 'eight pieces'),
    '十枚落ち': (('8b', '2b', '1a', '9a', '2a', '8a', '3a', '7a', '4a', '6a'), 'ten pieces'),
}


def without(board, squares):
    """An SFEN board with the pieces on `squares` (USI: file 1-9, rank a-i) taken off."""
    rows = [list(''.join('.' * int(c) if c.isdigit() else c for c in row)) for row in board.split('/')]
    for square in squares:
        rows[ord(square[1]) - ord('a')][9 - int(square[0])] = '.'
    packed = []
    for row in rows:
        text = ''.join(row)
        for run in range(9, 0, -1):
            text = text.replace('.' * run, str(run))
        packed.append(text)
    return '/'.join(packed)


# name -> the SFEN of its start: 上手 (white) to move, no pieces in hand
HANDICAPS = {name: f'{without(START_BOARD, squares)} w - 1' for name, (squares, _) in REMOVED.items()}
ENGLISH = {name: english for name, (_, english) in REMOVED.items()}


def handicap_of(sfen):
    """The name of the handicap a game starts from (its SFEN), or None for an even game or any other
    position."""
    return next((name for name, start in HANDICAPS.items() if start == sfen), None)


def handicap_named(text):
    """The handicap a player names, in Japanese (香落ち) or English (lance, 'two pieces'), or
    ValueError listing them."""
    for name, english in ENGLISH.items():
        if text.strip() in (name, english, english.replace(' ', '-')):
            return name
    raise ValueError(f'{text!r} is not a handicap: give one of ' + ', '.join(f'{name} ({english})' for name, english
                                                                        in ENGLISH.items()))


def side_names(sfen, lang='ja'):
    """The names of the sides (black's, white's) in a game's record: 先手/後手, or 下手/上手 in a
    handicap game; in English sente/gote, or shitate/uwate."""
    handicap = handicap_of(sfen) is not None
    if lang == 'ja':
        return ('下手', '上手') if handicap else ('先手', '後手')
    return ('shitate', 'uwate') if handicap else ('sente', 'gote')
