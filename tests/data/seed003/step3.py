from hexapawn import START, moves, play, has_lost, mirror, sharp_white
import random
random.seed(1)

boxes = {}

def her_turn(board):
    if mirror(board) < board:
        board = mirror(board)
    if board not in boxes:
        boxes[board] = moves(board, 'B')
    beads = boxes[board]
    if len(beads) == 0:
        return board, None
    return board, random.choice(beads)

def play_game(white):
    board = START
    last = None
    while True:
        board = play(board, white(board))
        if has_lost(board, 'B'):
            break
        board, bead = her_turn(board)
        if bead is None:
            break
        last = (board, bead)
        board = play(board, bead)
        if has_lost(board, 'W'):
            return 'W'
    box, bead = last
    boxes[box].remove(bead)
    return 'L'

record = ''
for game in range(50):
    record = record + play_game(sharp_white)
for start in range(0, 50, 10):
    print(record[start:start + 10])
print('Lost', record.count('L'), 'of 50; the last loss was game', record.rfind('L') + 1)
beads = 0
for box in boxes:
    beads = beads + len(boxes[box])
print('Boxes opened:', len(boxes), ' beads left in them:', beads)
