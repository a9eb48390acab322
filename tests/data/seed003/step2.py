from hexapawn import START, moves, play, has_lost, mirror, random_white
import random
random.seed(3)

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
    last = None                    # HER's last move: its box and its bead
    while True:
        board = play(board, white(board))
        if has_lost(board, 'B'):
            break                  # White has won
        board, bead = her_turn(board)
        if bead is None:
            break                  # an empty box: HER gives up
        last = (board, bead)
        board = play(board, bead)
        if has_lost(board, 'W'):
            return 'W'             # HER won: nothing changes
    box, bead = last
    boxes[box].remove(bead)        # HER lost: out goes its last move's bead
    print('Lost: bead', bead, 'taken out of box', box)
    return 'L'

for game in range(5):
    print(play_game(random_white))
