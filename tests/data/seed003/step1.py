from hexapawn import START, moves, play, mirror, show
import random
random.seed(3)

boxes = {}

def her_turn(board):
    # HER looks at the board, or at it in a mirror: the same game either way
    if mirror(board) < board:
        board = mirror(board)
    if board not in boxes:
        boxes[board] = moves(board, 'B')    # a new box: a bead for every move
    beads = boxes[board]
    if len(beads) == 0:
        return board, None                  # an empty box: HER gives up
    return board, random.choice(beads)

board = play(START, (6, 3))     # White moves its left pawn
show(board)
board, bead = her_turn(board)
print('HER looks at it as')
show(board)
print('The box holds', boxes[board], 'and HER drew', bead)
