from hexapawn import START, moves, play, has_lost, mirror, can_win
from hexapawn import random_white, sharp_white
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

def bad(box, bead):
    # True if this move lets White win, however HER plays after it
    return can_win(play(box, bead), 'W')

for name, white in [('Random', random_white), ('Sharp', sharp_white)]:
    most = 0
    total = 0
    good_lost = 0
    for her in range(50):
        boxes = {}
        losses = 0
        for game in range(200):
            if play_game(white) == 'L':
                losses = losses + 1
        most = max(most, losses)
        total = total + losses
        for box in boxes:
            for bead in moves(box, 'B'):
                if bead not in boxes[box] and not bad(box, bead):
                    good_lost = good_lost + 1
    print(name + ': most losses', most, '| average', total / 50,
          '| good beads taken out', good_lost)

boxes = {}
for game in range(200):
    play_game(random_white)
count = 0
bad_beads = 0
for box in boxes:
    for bead in moves(box, 'B'):
        count = count + 1
        if bad(box, bead):
            bad_beads = bad_beads + 1
print(len(boxes), 'boxes,', count, 'beads,', bad_beads, 'of them bad')
