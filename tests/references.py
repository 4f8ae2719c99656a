"""What the games' rules are compared against: a second, plain Othello written for readability, not
speed; perft (the number of move sequences of a given length), the way chess programs check their
move generators; and known games that reach rare positions."""


# ----- perft: the number of move sequences of each length from the start -----
def perft(state, depth):
    if state.is_done():
        return 0
    if depth == 1:
        return len(state.legal_actions())
    return sum(perft(state.next(action), depth - 1) for action in state.legal_actions())


class SimpleOthello:
    def __init__(self, size, board, player=1):
        self.size, self.board, self.player = size, board, player  # board: list of +1/-1/0

    def flips(self, square, player):
        if self.board[square]:
            return []
        y0, x0 = divmod(square, self.size)
        flipped = []
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                run, y, x = [], y0 + dy, x0 + dx
                while 0 <= y < self.size and 0 <= x < self.size and self.board[y * self.size + x] == -player:
                    run.append(y * self.size + x)
                    y, x = y + dy, x + dx
                if run and 0 <= y < self.size and 0 <= x < self.size and self.board[y * self.size + x] == player:
                    flipped += run
        return flipped

    def moves(self, player):
        return [s for s in range(self.size ** 2) if self.flips(s, player)]

    def legal_actions(self):
        return self.moves(self.player) or [self.size ** 2]

    def is_done(self):
        return not self.moves(self.player) and not self.moves(-self.player)

    def next(self, action):
        board = self.board[:]
        if action < self.size ** 2:
            for square in self.flips(action, self.player) + [action]:
                board[square] = self.player
        return SimpleOthello(self.size, board, -self.player)


# Simple shogi: a game (found by a search for one) where the second player is left without a move at ply 43: every
# piece blocked by its own, nothing in hand
STALEMATE = [66, 66, 33, 89, 105, 21, 112, 115, 43, 89, 105, 103, 112, 76, 105, 33, 112, 112, 89, 55, 120, 92,
             55, 55, 18, 18, 98, 38, 38, 0, 12, 44, 38, 43, 70, 74, 103, 21, 66, 31, 33, 84, 46]
