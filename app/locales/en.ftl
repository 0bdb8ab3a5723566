# (Over 600 lines: every message of the site in English, one file like el.ftl; plurals take several lines each.)
# Othello 3D: English strings. Every message here must also be in el.ftl
# (the app's tests fail otherwise). Square names (a1–h8) are not translated.

## Common

site-title = Othello 3D
side-name = { $side }
side-name-lower = { $side ->
    [Black] black
   *[White] white
}
lang-switch-label = Language
lang-switch-to = Ελληνικά
not-found-title = Not found
not-found-text = There is no page here.
back-to-lobby = Back to the lobby
account-title = Your account
account-sign-in = Sign in
account-create = Create an account
account-name = Name
account-password = Password
account-name-rule = 3 to 20 characters: letters a–z and A–Z, digits, _ and -.
account-password-rule = At least 10 characters, hard to guess: a phrase of a few unrelated words works well.
account-why = You can play without an account. With one, your games follow you to any browser where you sign in.
account-you-are = Signed in as
account-signed-in-text = Your tables and games belong to your account: sign in on another browser to play them there.
account-sign-out = Sign out
account-sign-out-everywhere = Sign out everywhere
profile-since = Member since { $date }
profile-results = Against other players — won: { $wins }, lost: { $losses }, drawn: { $draws }.
profile-games = Games
profile-no-games = No finished games yet.
profile-filter-mode = Mode
profile-filter-result = Result
profile-filter-all = All
profile-filter-vs-ai = Against the AI
profile-filter-hot-seat = Two on one screen
profile-filter-won = Won
profile-filter-lost = Lost
profile-filter-drawn = Drawn
profile-filter-apply = Show
profile-older = Older games
profile-newest = Back to the newest games
game-deleted-player = deleted player
account-manage = Manage your account
account-change-password = Change the password
account-current-password = Current password
account-new-password = New password
account-password-changed = Password changed: every other browser signed in to this account is signed out.
account-download = Download my data (JSON)
account-delete = Delete my account
account-delete-text = Your account, its ratings and every sign-in are deleted at once; your games stay in the archive for your opponents, under "deleted player". This cannot be undone.
account-delete-confirm = Delete my account for good
profile-export-ggf = GGF
profile-export-wtb = WTHOR games (.wtb)
profile-export-jou = WTHOR players (.jou)
srv-not-current-password = That is not your current password.
srv-download-sign-in = Sign in to download your data: an anonymous browser keeps no account.
speed-blitz = Blitz
speed-rapid = Rapid
players-anonymous = Anonymous
players-rating-title = Rating (a ? means it has not settled yet: that takes a few rated games)
players-rated = Rated game
players-unrated-linked = Not rated: these two accounts were used from the same address or browser, so this game changes no rating.
players-no-ratings = none yet: play a rated game
players-your-ratings = Your ratings:
players-your-ratings-link = Your ratings and games
players-leaderboard = Leaderboard
players-search = Find a player
players-search-label = Name starts with
players-search-go = Search
players-search-none = No player's name starts so.
players-search-unrated = no rated game yet
players-leaderboard-rule = The best 50 of each speed among players whose rating has settled (after a few rated games) and who played a rated game in the last 30 days.
players-board-empty = Nobody is listed yet: a player appears here once their rating has settled, after a few rated games. Play rated quick matches to get there.
players-rating = Rating
players-games = Rated games
players-ratings = Ratings
players-rated-games = rated games: { $count }
players-provisional = A ? after a rating means it is provisional: it settles after about { $games ->
    [one] 1 rated game
   *[other] { $games } rated games
}.
players-graph-label = { $speed } rating over time, from { $low } to { $high }
srv-rated-sign-in = Rated games are for signed-in players: sign in (or create an account) to play one.
srv-rated-timed = A rated game is timed: choose 3+2, 5+0 or 10+5.
profile-not-found = Player not found
game-export-ggf = Download the game (GGF)
game-export-text = Download as text
account-profile = Your public profile
game-mode-ai = Against the AI
game-mode-hot-seat = Two on one screen
game-mode-online = Online
game-mode-online-timed = Online, { $control }
game-ai = AI (depth { $depth })
game-ai-strongest = AI (strongest)
game-anonymous = Anonymous
game-ratings = Rated game — Black { $black }, White { $white }
game-why-finished = no moves left
game-why-resigned = by resignation
game-why-left = a player left
game-why-left-won = because the other player left
game-why-abandoned = both players left
game-why-aborted = aborted
game-why-forfeit = by forfeit: a first move was not made in time
game-aborted = Aborted: a side never moved, so it counts for nobody ({ $score }).
game-why-time = on time
game-won = { $winner ->
    [Black] Black won
   *[White] White won
} { $score } ({ $why }).
game-no-winner = No winner, { $score } ({ $why }).
game-won-early = { $winner ->
    [Black] Black won
   *[White] White won
} { $why } ({ $score } on the board).
game-moves = { $count ->
    [one] 1 move
   *[other] { $count } moves
}
game-not-found = Game not found
game-at-start = The start position, before { $total ->
    [one] the only move
   *[other] { $total } moves
}.
game-at-move = Move { $number } of { $total }: { $side ->
    [Black] Black
   *[White] White
} { $square }.
game-you-played = You played this game.
game-controls = Step through the game
game-first = First position
game-back = Previous move
game-forward = Next move
game-last = Last move
game-keys = Keys: ← and → step through the moves, Home and End jump to the start and the end.
account-games = Your games
account-games-none = No finished games yet: every game you finish is kept here.

## Lobby

lobby-offline-title = The server cannot be reached
lobby-offline-text = You can still practise: the AI also runs in this browser. That game is kept in this browser only, not saved on the server.
lobby-offline-play = Play the AI offline
lobby-ai-title = Play the AI
lobby-ai-text = The AI looks ahead a fixed number of moves: 1 is gentle, 6 is strong; Strongest thinks with a trained evaluation and plays the endgame perfectly.
lobby-depth = Search depth
lobby-depth-strongest = Strongest
lobby-you-play = You play
lobby-black-first = Black (first)
lobby-white-second = White (second)
lobby-start-ai = Play vs AI
lobby-hot-seat-title = Two on one screen
lobby-hot-seat-text = Two players share this screen and take turns.
lobby-start-hot-seat = Play two on one screen
lobby-online-title = Play online
lobby-online-text = Meet a stranger in the quick-match queue, or open a private table and send its link to a friend.
lobby-time-control = Time control (minutes + seconds per move)
lobby-rated = Rated: the result changes both players’ ratings (both must be signed in)
lobby-rated-signed-out = Rated games change your rating and put you on the leaderboard.
lobby-rated-create = Create an account to play rated games
lobby-tc-test = { $label } (test)
lobby-untimed = Untimed (private tables)
lobby-quick-match = Quick match
lobby-waiting = Waiting for an opponent…
lobby-leave-queue = Leave queue
lobby-bot-offer = No one has come in { $secs } s. { $bot }, a bot rated { $rating }, is online: play it instead?
lobby-bot-offer-play = Play { $bot }
lobby-bot-offer-wait = Keep waiting
lobby-bot-offer-sent = Challenge sent to { $bot }: you go to the table as soon as it accepts.
lobby-play-bot = Play a bot
lobby-private-table = Private table
lobby-from-title = Start from a position
lobby-from-text = Paste a position in OBF: 64 cells (X black, O white, - empty) from a1 to h8, a space, then X or O for the side to move. Against the AI you play the colour chosen above.
lobby-from-label = Position in OBF
lobby-from-ai = Play it vs AI
lobby-from-hot-seat = Play it two on one screen
lobby-lab-title = AI lab
lobby-lab-text = Watch two engines play each other, with an explanation and a lesson after every move.
lobby-lab-open = Open the AI lab
lobby-more = More ways to start
lobby-cannot-reach = Cannot reach the server.

## Table

table-loading = Loading the table…
table-not-found = Table not found
mode-vs-ai = You ({ $side }) vs AI depth { $depth }
mode-vs-ai-watch = A player ({ $side }) vs AI depth { $depth }
mode-vs-ai-strongest = You ({ $side }) vs the strongest AI
mode-vs-ai-strongest-watch = A player ({ $side }) vs the strongest AI
mode-hot-seat = Two on one screen
mode-online-private = Online: private table, { $control }
mode-online-quick = Online: quick match, { $control }
mode-rated = { $control }, rated
mode-untimed = untimed
table-you = You
table-seat-free = { $side } seat is free.
table-left = { $who ->
    [You] You
    [Black] Black
   *[White] White
} left the table: { $left } s to come back before losing.
table-ai-thinking = { $side } (AI) is thinking…
table-ai-waiting = { $side } (AI) is waiting: the AI is busy
table-ai-busy-title = The AI is busy
table-ai-busy-text = Too many AI searches are waiting on the server, so the AI could not start on its move. Your game is saved: ask again in a moment.
table-ai-busy-retry = Ask the AI again
table-ai-busy-still = Still busy: try again in a moment.
table-your-move = Your move ({ $side })
table-to-move = { $side } to move
table-abandoned = Abandoned: nobody wins
table-aborted = Aborted: it counts for nobody
table-forfeit-both = Forfeit: neither player made a first move, both lose
table-wins = { $side } wins
table-wins-resigned = { $side } wins by resignation
table-wins-timeout = { $side } wins (the opponent left)
table-wins-time = { $side } wins on time
table-wins-forfeit = { $side } wins by forfeit
table-draw = Draw
table-you-won = You won: { $result }
table-you-lost = You lost: { $result }
table-result-rated = { $result } · rating { $rating } ({ $change })
table-resign = Resign
table-resign-hot-seat = Resign (side to move)
table-resign-confirm = Resign this game?
table-resign-confirm-side = Resign for { $side }?
table-resign-yes = Yes, resign
table-resign-no = No, keep playing
table-reviewing = Showing the position after move { $number }.
table-review-back = Back to the game
table-review-better = Better was { $square }, marked on the board: this move lost { $loss ->
    [one] 1 disc
   *[other] { $loss } discs
} against it.
table-vote-withdraw-side = { $side }: withdraw the rematch offer
table-vote-side = { $side }: offer a rematch
table-vote-withdraw = Withdraw your rematch offer
table-vote = Offer a rematch
table-their-vote = Your opponent offers a rematch.
table-rematch = Rematch
table-review-game = Review this game
table-watching-free = You are watching. The { $side } seat is free: take it to play.
table-take-seat = Take the free seat
table-watching = You are watching this game.
table-rules = Rules
table-round = Round { $round }
table-ai-search = The AI thought { $depth ->
    [one] 1 move
   *[other] { $depth } moves
} ahead (its own and yours) and weighed { $nodes ->
    [one] 1 position
   *[other] { $nodes } positions
} before it played.
table-ai-book = The AI played a move from its opening book.
table-share-title = Waiting for an opponent
table-share-label = Link to this table
table-share-text = Send this link to a friend: they take the free seat with the button on the page. The game and its grace timers start when both seats are taken.
table-tally = Tally
table-tally-black = Black
table-tally-white = White
table-tally-draws = Draws
table-export = Export
table-new-table = New table
table-moves = Moves ({ $count })
table-move = { $side } { $square } — flips { $flipped }
table-pass = { $side } passes (no legal move)
table-live = Live
table-connecting = Connecting…
table-square-error = { $square }: { $error }

## Rules sidebar

rules-close = Close the rules
rules-title = How to play Othello
rules-1 = Black moves first. Players take turns placing one disc of their colour.
rules-2 = A move must outflank: the new disc and another of yours must enclose a straight line (row, column or diagonal) of your opponent's discs with no gap. All such lines flip to your colour.
rules-3 = A move that flips nothing is not allowed. Legal squares are marked with a yellow dot; the last move has a red ring.
rules-4 = If you have no legal move you pass, and your opponent plays again. This happens automatically.
rules-5 = When neither player can move the game ends; the player with more discs wins.
rules-6 = Corners can never be flipped; squares next to corners are risky early on.
rules-controls = Controls
rules-controls-1 = Click a square to play. Drag to orbit the board; scroll or pinch to zoom.
rules-controls-2 = Resign ends the game as a loss. After a game, vote for a rematch: colours and AI depth carry over.
rules-controls-3 = When a player has to pass, a notice says so until that player moves again, and the move list shows the pass.
rules-online = Playing online
rules-online-1 = A private table seats its creator. A friend who opens the link watches until they press Take the free seat; later visitors watch.
rules-online-2 = Quick match seats both players at once.
rules-online-3 = The game starts when both seats are taken. A player who is not on the page then, or who leaves during a game, has a grace period (90 seconds by default) to come back; the countdown shows next to the board.
rules-online-4 = A player who does not come back in time loses that game. If both players are away when a grace period ends, the game is abandoned and nobody wins.
rules-online-5 = Between games nothing counts down. After a rematch starts, an absent player gets a full grace period from that moment.
rules-online-6 = New table starts a fresh private table with its own tally.
rules-clocks = Clocks
rules-clocks-1 = Online games are timed: 3+2, 5+0 or 10+5 (minutes each, plus seconds added after each of your moves). Quick match pairs you with someone who chose the same control; a private table may also be untimed.
rules-clocks-2 = Your clock runs from the moment your opponent's move is saved until yours is. A forced pass costs nothing. The server keeps the time; the clocks on the page count down between its updates.
rules-clocks-3 = If your clock reaches zero you lose that game on time. Your clock keeps running while you are away: the grace period and your clock both run, and whichever ends first decides.
rules-clocks-4 = The control carries over to rematches and new tables. Time while the server was down is not charged: the clocks resume with the time left at the last move.
rules-clocks-5 = Clocks warn when under 30 seconds, and a screen reader hears it at 30 and 10 seconds.

## Texts the server writes in English (notices, refusals): the English
## messages are also the patterns that recognise them (see app/src/i18n.rs).

srv-pass = { $side } has no legal move and passes; { $other } plays again.
srv-resigns = { $loser } resigns. { $winner } wins.
srv-game-over-win = Game over: { $winner } wins { $black }–{ $white }.
srv-left = { $loser } left and did not come back in time. { $winner } wins.
srv-abandoned = Both players left: the game is abandoned and nobody wins.
srv-unrated-after-failures = The result could not be saved with ratings after several tries, so this game ends unrated.
srv-aborted = The game was aborted: it counts for nobody.
srv-forfeit = { $loser } did not make a first move in time and forfeits. { $winner } wins.
srv-forfeit-both = Neither player made a first move in time: both lose by forfeit.
srv-aborted-first-move = { $side } did not make a first move in time: the game is aborted and counts for nobody.
srv-out-of-time = { $loser } ran out of time. { $winner } wins on time.
srv-draw = Game over: a draw, { $black }–{ $white }.
srv-rematch = Rematch: round { $round } begins.
srv-wants-rematch = { $side } wants a rematch; waiting for { $other }.
srv-withdrew = { $side } withdrew the rematch vote.
srv-not-your-turn = It is not your turn: { $side } is to move.
srv-over = The game is over: vote for a rematch to play again.
srv-not-over = A rematch can only be voted for once the game is over.
srv-rounds-spent = This table has played all its rounds ({ $limit }): start a new table to play on.
srv-taken = Square { $square } is taken.
srv-no-flips = A disc on { $square } would flip nothing: a move must outflank at least one disc.
srv-not-seated = You are not seated at this table.
srv-already-seated = You already hold a seat at this table.
srv-seats-taken = Both seats are taken: you can watch this game, not play in it.
srv-no-seats = Only online tables have seats to take: this table is played in one browser.
srv-waiting = Waiting for an opponent: share this table's link to start.
srv-resign-early = Nothing to resign yet: the game starts when an opponent takes the other seat.
srv-resign-before-first-move = A tournament game cannot be resigned before its first move: a player who does not come loses by forfeit when the first-move timer ends.
srv-not-your-side = You do not play { $side } at this table.
srv-which-side = Say which side votes: black or white.
srv-ai-thinking = Wait: the AI is thinking.
srv-no-table = No such table: it may have expired or never existed.
srv-depth = The AI's depth must be between 1 and 6 (or 7: the strongest).
srv-quick-timed = Quick match is always timed: choose 3+2, 5+0 or 10+5.
srv-needs-time = A clock cannot start at zero minutes: choose 3+2, 5+0 or 10+5.
srv-not-offered = { $control } is not offered: choose 3+2, 5+0 or 10+5.
srv-online-from = Online tables start from the usual position; to start from another position, play against the AI or two on one screen.
srv-obf-paste = Paste a position in OBF: 64 cells (X, O or -) from a1 to h8, a space, then X or O for the side to move.
srv-obf-long = That is too long for an OBF position (64 cells, a space, X or O).
srv-obf-invalid = This is not a valid OBF position: { $why }. Expected 64 cells (X, O or -) from a1 to h8, a space, then X or O.
srv-centre-one = This position cannot happen in Othello: the centre square { $squares } is empty.
srv-centre-many = This position cannot happen in Othello: the centre squares { $squares } are empty.
srv-no-moves = Neither side has a legal move in this position: the game is already over.
srv-save-failed = The server could not save this; nothing changed. Please try again.
srv-no-session = no session: enable cookies and reload the page
srv-not-ready = the server is not ready
srv-queue-unavailable = the queue is unavailable
srv-unreachable = the server could not be reached: { $why }
srv-name-length = A name has 3 to 20 characters: letters, digits, _ and -.
srv-name-chars = A name may hold only the letters a–z and A–Z, digits, _ and -.
srv-name-reserved = That name is reserved: choose another.
srv-name-taken = That name is taken: choose another.
srv-password-short = A password needs at least 10 characters.
srv-password-long = A password may have at most 128 characters.
srv-password-weak = This password is too easy to guess: use a longer phrase of unrelated words.
srv-sign-ups = Too many new accounts from this address: try again in an hour.
srv-sign-in-wait = Too many failed sign-ins: wait { $seconds } s and try again.
srv-sign-in-wrong = Wrong name or password.
srv-not-signed-in = You are not signed in.
srv-hashing-busy = The server is busy signing players in: try again in a moment.

## Clocks

clock-announce = { $side }: { $seconds ->
    [one] 1 second
   *[other] { $seconds } seconds
} left.
clock-you = { $side } (you)
clock-first-move = { $side } must move within { $seconds } s
clock-low = Low time
clock-control = Time control

## Hint

hint-button = Hint
hint-title = The engine, running in your browser, suggests a move
hint-failed = No hint: { $error }
hint-pass = { $side } has no move: it must pass.
hint-thinking-all = Scoring every move (at most { $millions } million positions)…
hint-verdict = Best move { $square }: { $standing }.
hint-standing-ahead = { $side } is ahead
hint-standing-level = { $side } is neither ahead nor behind
hint-standing-behind = it loses least, { $side } is behind
hint-standing-wins = it wins by { $by } with perfect play
hint-standing-draws = it draws with perfect play
hint-standing-loses = it loses least (by { $by }) with perfect play
hint-numbers-show = Show the numbers
hint-numbers-hide = Hide the numbers
hint-legend = Each number is how many discs the side to move ends ahead (+) or behind (−) after that move if both sides then play their best: “exact” when solved to the last move, else an estimate from a search.
hint-detail = { $how }; { $count ->
    [one] 1 move
   *[other] { $count } moves
} scored in { $ms } ms.
hint-exact-all = solved exactly
hint-tag-exact = exact
hint-tag-estimate = estimate
hint-list-label = Every legal move, best first, in discs
hint-searched = searched { $depth ->
    [one] 1 move
   *[other] { $depth } moves
} ahead

## Analysis

analysis-opening = Opening:
analysis-checking = Checking for an analysis…
analysis-intro = Find each move's loss in discs against the best move: the trained evaluation's search in the midgame, the exact solver for the last empty squares.
analysis-failed = The analysis failed:
analysis-running = Analysing… { $done } of { $total ->
    [one] 1 move
   *[other] { $total } moves
}
analysis-title = Analysis
analysis-loss-exact = −{ $loss ->
    [one] 1 disc
   *[other] { $loss } discs
} (exact)
analysis-loss-search = −{ $loss ->
    [one] 1 disc
   *[other] { $loss } discs
} (estimate)
severity-best = best
severity-inaccuracy = inaccuracy
severity-mistake = mistake
severity-blunder = blunder
analysis-summary = Search depth { $depth } in the midgame; exact solver { $empties ->
    [one] for the last empty square
   *[other] for the last { $empties } empty squares
}.
analysis-headline = The costliest move was { $number }. { $side } { $square }: it lost { $loss ->
    [one] 1 disc
   *[other] { $loss } discs
} against the best, { $best }.
analysis-no-mistakes = No move lost anything against the best move.
analysis-best-was = {" "}— best was { $square }
analysis-legend = Black's advantage in discs after each move (above the line Black is better); dots mark the worst moves.
analysis-legend-exact = Right of the dashed line the values are exact.
analysis-worst = Worst moves
analysis-show-position = Show this position on the board
analysis-book = { $plies ->
    [one] The first move came from the opening book.
   *[other] The first { $plies } moves came from the opening book.
}
analysis-book-mark = book
analysis-book-mark-title = A move of the opening book
analysis-axis-black = Black ahead
analysis-axis-even = Even
analysis-axis-white = White ahead
analysis-axis-move = move { $number }
analysis-graph-label = Black's advantage over the game; { $mistakes ->
    [one] 1 mistake
   *[other] { $mistakes } mistakes
}
analysis-loss-graph-label = Discs lost against the best moves, added up over the game: Black { $black ->
    [one] 1 disc
   *[other] { $black } discs
} (solid line), White { $white ->
    [one] 1 disc
   *[other] { $white } discs
} (dashed line).

## Offline practice

offline-draw = Draw, { $score }
offline-you-win = You win, { $score }
offline-ai-wins = The AI wins, { $score }
offline-ai-to-move = { $side } (AI) to move
offline-move = { $side } { $square }
offline-choose = Choose a depth and a colour, then start.
offline-loading = Loading…
offline-mode = Offline: you ({ $side }) vs AI depth { $depth }
offline-practice = Offline practice vs the AI
offline-note-strong = Offline practice: not saved on the server.
offline-note = This game runs in your browser (the same AI as the site's tables) and is kept in this browser's storage only.
offline-depth = AI depth
offline-new-game = New game
offline-start = Start
srv-ai-failed = The AI failed: { $error }
srv-ai-no-move = The AI found no move.
srv-engine-start = The engine cannot start: { $error }
srv-not-legal = { $square }: not a legal move

## The lab's built-in (offline) explainer (server/src/lab/explain/offline.rs).
## Sentences are joined with a space; { $side } and { $opponent } are Black/White.

explain-list-and = { $rest } and { $last }
explain-played = { $side } played { $square } and flipped { $captured ->
    [one] 1 disc
   *[other] { $captured } discs
} ({ $list }), leaving { $black ->
    [one] 1 black disc
   *[other] { $black } black discs
} and { $white ->
    [one] 1 white disc
   *[other] { $white } white discs
}.
explain-corner = Taking the { $square } corner gives { $side } a disc that can never be flipped and an anchor for stable edges.
explain-x-square = { $square } is an X-square, diagonal to an empty corner: it can hand { $opponent } that corner later.
explain-c-square = { $square } is a C-square next to an empty corner, a risky edge square until that corner is settled.
explain-edge = It is an edge move, harder for { $opponent } to flip back.
explain-game-over = The move ends the game.
explain-must-pass = { $opponent } has no reply and must pass, so { $side } moves again.
explain-mobility = { $opponent } now has { $replies ->
    [one] one move
   *[other] { $replies } moves
} to choose from ({ $list }), { $change ->
    [fewer] down from { $before }
    [more] up from { $before }
   *[same] as many as before
}; { $side } has { $own ->
    [0] none
   *[other] { $own }
}.
explain-corner-warning = Warning: { $opponent } can now take the corner { $list }.
explain-frontier-more = The move gave { $side } { $added ->
    [one] one more frontier disc
   *[other] { $added } more frontier discs
} (discs next to an empty square, which open moves for { $opponent }): { $own } now, against { $theirs } for { $opponent }.
explain-frontier-fewer = { $side } now has fewer frontier discs (discs next to an empty square): { $own }, down from { $before }, against { $theirs } for { $opponent }.
explain-frontier-same = A quiet move: { $side } still has { $own ->
    [one] one frontier disc
   *[other] { $own } frontier discs
} (discs next to an empty square), against { $theirs } for { $opponent }.
explain-stable = { $side } now has { $stable ->
    [one] one stable disc
   *[other] { $stable } stable discs
}, which can never be flipped again ({ $gained ->
    [one] one more
   *[other] { $gained } more
} than before the move).
explain-fewest-replies = Of { $side }'s { $moves ->
    [one] 1 possible move
   *[other] { $moves } possible moves
}, none leaves { $opponent } fewer replies.
explain-quietest = Of { $side }'s { $moves ->
    [one] 1 possible move
   *[other] { $moves } possible moves
}, none makes fewer frontier discs: a quiet choice.
explain-parity = { $empties ->
    [one] One empty square is left
   *[other] { $empties } empty squares are left
}: if nobody passes, { $last } plays the last move, which is worth having (parity).
explain-search-best = Looking { $depth ->
    [one] one move
   *[other] { $depth } moves
} ahead, the engine rated { $square } the best of { $moves ->
    [one] 1 move
   *[other] { $moves } moves
}; the next best, { $next }, scored { $next_value } against { $value } for { $square }.
explain-search-tie = Looking { $depth ->
    [one] one move
   *[other] { $depth } moves
} ahead, the engine rated { $square } as good as { $list }: { $ties ->
    [one] both
   *[other] all
} scored { $value }.
explain-search-below = Looking { $depth ->
    [one] one move
   *[other] { $depth } moves
} ahead, the engine rated { $best } higher than { $square } ({ $best_value } against { $value }).
explain-discs-best = Counted in discs, as the game analysis counts them, { $square } was the best move: about { $value } for { $side } at the end.
explain-discs-below = Counted in discs, as the game analysis counts them, { $square } is worth about { $value } for { $side } at the end, and { $best } about { $best_value }.
explain-only-move = It was { $side }'s only legal move.
explain-estimate = The exact endgame solver ran out of its budget here, so these values are estimates, not perfect play.
explain-perfect-worse = Perfect play: { $square } { $result }, while { $best } { $best_result } ({ $lost ->
    [one] 1 disc
   *[other] { $lost } discs
} lost to the best move).
explain-perfect-best = Perfect play: { $square } { $result }, the best result available.
explain-result-wins = wins by { $by }
explain-result-loses = loses by { $by }
explain-result-draws = draws
lesson-corner = Take a corner when it is offered: corner discs are stable and protect the edges next to them.
lesson-corner-risk = Before you move, check whether your move lets the opponent into a corner.
lesson-x-square = Avoid the squares diagonally next to an empty corner; they tend to give that corner away.
lesson-no-reply = Moves that leave the opponent without a reply are worth a lot: you keep the initiative.
lesson-endgame = In the endgame the disc count starts to decide the game: count the discs each move flips, not just the shape.
lesson-frontier = Moves that create new frontier discs give the opponent more options; prefer quiet moves inside your own wall.
lesson-mobility = Keep more moves for yourself than your opponent has: mobility wins Othello games.
lesson-quiet = Flipping few discs in the opening and middle game often keeps the opponent short of moves.
lesson-greedy = Flipping many discs early is not a goal in itself; watch how many replies it gives your opponent.
lesson-parity = In the endgame, try to play the last move in each empty region: whoever plays last there flips discs that cannot be flipped back.
lesson-stable = Stable discs, the ones that can never be flipped, are the only ones sure to count at the end: grow them from the corners along the edges.
lesson-c-square = A C-square (the edge square next to an empty corner) is safe only while the opponent cannot use it to reach that corner; look along that edge before you go there.
lesson-edge = Edge discs are hard to flip, but an edge taken too early can become a target: take edges the opponent cannot attack from both sides.

## AI lab

lab-black-depth = Black depth
lab-white-depth = White depth
lab-new-game = New lab game
lab-provider-offline = Explanations are written by the built-in explainer, from the facts of each position.
lab-provider-model = Explanations are written by { $name }, a language model.
lab-provider-model-down = Explanations are written by { $name }, a language model, which is not available right now.
lab-intro = Two engines play each other, each searching to its own depth. After every move a short explanation and one reusable lesson tell you what the move does for the position.
lab-games = Lab games
lab-none = No lab game yet.
lab-yours = Your lab games
lab-others = Recent games by others
lab-others-note = Watch only: their owners step them. Open one to watch, or to make your own copy.
lab-watching = Watching.
lab-watching-text = Only the visitor who started this lab game plays its turns; it updates here as they do.
lab-copy = Make my own copy
lab-copy-note = A new lab game of yours from this position, with the same engine depths, that you can step.
lab-game-line = Black depth { $black } vs White depth { $white } — { $plies ->
    [one] 1 move
   *[other] { $plies } moves
}, { $score }{ $over ->
    [yes] , over
   *[no] {""}
}
lab-loading = Loading the lab game…
lab-not-found = Lab game not found
lab-back = Back to the lab
lab-graph-label = Black's advantage over the game
lab-over-win = Game over: { $side } wins { $score }
lab-over-draw = Game over: draw { $score }
lab-writing = Writing the explanation…
lab-searching = { $side } (depth { $depth }) is searching…
lab-to-move = { $side } to move (depth { $depth })
lab-pass = { $side } has no legal move and passes.
lab-explanations = Explanations
lab-explanations-intro = Press Next turn (or N) to let the engines play; each move gets an explanation and a lesson.
lab-explanations-intro-watcher = No move yet. The engines play when this game's owner steps it; each move appears here with an explanation and a lesson.
lab-move-heading = Move { $ply } · { $side } { $square } · flips { $captured }
lab-move-flips = flips { $count }
lab-search-facts = Search: depth { $depth }, value { $value }, { $nodes ->
    [one] 1 position
   *[other] { $nodes } positions
}, { $alternatives ->
    [one] 1 legal move
   *[other] { $alternatives } legal moves
}
lab-discs-best = In discs (the analysis's estimate): { $value }, the best move.
lab-discs-below = In discs (the analysis's estimate): { $value }; the best move { $best }.
lab-exact = Exact (perfect play): this move { $result }
lab-exact-best = ; the best move { $result }
lab-estimate = Endgame solver: out of budget, values are estimates.
lab-unverified = Unverified:
lab-unverified-text = the text names { $squares } — not a legal move, a flipped disc or an occupied square of this position.
lab-lesson = Lesson:
lab-written-by = Written by
lab-explain-failed = The explanation failed:
lab-retry = Retry explanation
lab-depths = Black depth { $black } vs White depth { $white }
lab-moves = Moves
lab-live = Live
lab-reviewing = Reviewing move { $ply }
lab-back-live = Back to live
lab-review-status = After move { $ply }: { $status }
lab-review-next = You are looking at move { $ply }: Next turn (N) first brings back the live game; press it again to play on.
lab-next-turn = Next turn
lab-pause = Pause
lab-autoplay = Autoplay
lab-reading = Reading time
lab-frozen = Autoplay is frozen: the explanation failed. Retry it to go on.
lab-autoplay-on = Autoplay: { $reading } reading time after each explanation.
lab-evaluation = Evaluation
lab-graph-legend = Black's advantage after each move, by the search: above the line Black is better.
lab-export-text = Export text
lab-export-json = Export JSON
lab-play-from-title = Start a table from this position: against the AI or two on one screen
lab-play-from = Play from here
lab-another = Another lab game
srv-explain-provider = Offline explainer (built-in)
srv-explain-provider-detail = Explanations are written on the server from the position's facts; no model is used.
srv-no-lab = No such lab game.
srv-lab-depth = Each engine's depth must be between 1 and 6.
srv-lab-over = The game is over: { $result }.
srv-lab-wait = Wait: the explanation of { $square } is still being written.
srv-lab-retry-first = The explanation of { $square } failed: retry it before the next turn.
srv-search-failed = The search failed; nothing changed. Please try again.
srv-nothing-to-explain = There is no move to explain yet.
srv-not-finished = The game is not finished yet: analysis is for finished games.
srv-analysis-busy = The server is analysing other games; try again in a minute.
srv-analysis-unavailable = The analysis service is unavailable.
srv-lab-turn-running = Wait: the engine is already playing this game's next turn.
srv-tables-browser = too many live tables for this browser (limit { $limit }): finish or leave some first
srv-tables-address = too many live tables from your address (limit { $limit }): finish or leave some first
srv-lab-games-browser = Too many lab games for this browser (limit { $limit }); idle ones expire, or step one of yours.
srv-lab-games-address = Too many lab games from your address (limit { $limit }); idle ones expire, or step one of yours.
srv-analyses-browser = Too many analyses running for this browser (limit { $limit }): wait for one to finish.
srv-analyses-address = Too many analyses running from your address (limit { $limit }): wait for one to finish.
srv-explain-address-spent = Your address has used its { $limit } paid explanations for today; retry after midnight UTC. Nothing changed.
srv-explain-server-spent = The server's daily budget of { $limit } paid explanations is spent; retry after midnight UTC. Nothing changed.

## Exports (lab text export, table export headings)

export-opening = Opening: { $name } (first { $plies ->
    [one] move
   *[other] { $plies } moves
})
export-no-opening = Opening: not a named opening
export-lab-title = Othello 3D — AI lab game { $id }
export-lab-engines =
    Black (X): engine at depth { $black }
    White (O): engine at depth { $white }
export-start = Start position:
export-lab-move = { $ply }. { $side } { $square } — flips { $count } ({ $list }); black { $black }, white { $white }; search value { $value } (depth { $depth }, { $nodes ->
    [one] 1 position
   *[other] { $nodes } positions
})
export-explanation = Explanation ({ $provider }): { $text }
export-lesson = Lesson: { $text }
export-pending = Explanation: still being written.
export-failed = Explanation failed: { $message }
export-in-progress = In progress: { $side } to move (black { $black }, white { $white })
export-result = Result: { $result }
export-lessons = Lessons:
export-transcript = Transcript: { $moves }
srv-result-win = { $side } wins { $score }
srv-result-draw = Draw { $score }

## The board (screen reader)

announce-move = { $side } { $square } flips { $count }: { $flips }.
announce-win = Game over: { $side } wins. Black { $black }, white { $white }.
announce-draw = Game over: a draw. Black { $black }, white { $white }.
announce-new-round = A new round begins.
square-black = , black disc
square-white = , white disc
square-empty = , empty
square-legal = , legal move
square-last = , last move
square-value = , value { $value }
square-best = , best
board-label = Othello board. Arrow keys move the cursor, Enter or Space plays there. R, C and D read the row, column and diagonals; L the legal moves; S the discs; M the last move; T the clocks.
board-label-2d = Othello board (2D). Arrow keys move between squares, Enter or Space plays. R, C and D read the row, column and diagonals; L the legal moves; S the discs; M the last move; T the clocks.
board-skip = Skip celebration
board-renderer = Renderer:
export-ai = AI (depth { $depth })
export-ai-strongest = AI (strongest)
export-player = Player
export-black-player = Black player
export-white-player = White player
export-game-title = Othello 3D — game { $id }
export-table-title = Othello 3D — table { $id }, { $rounds ->
    [one] 1 round
   *[other] { $rounds } rounds
}
export-mode = Mode: { $mode }
export-players =
    Black (X): { $black }
    White (O): { $white }
export-round = === Round { $round } ===
export-move = { $ply }. { $side } { $square } — flips { $count } ({ $list }); black { $black }, white { $white }
export-time-used = ; time used { $seconds } s
export-round-result = Result of round { $round }: { $result }
export-resigned = { $winner ->
    [Black] White resigned; Black wins
   *[White] Black resigned; White wins
} (discs { $score })
export-timeout = { $winner ->
    [Black] White did not return in time; Black wins
   *[White] Black did not return in time; White wins
} (discs { $score })
export-time = { $winner ->
    [Black] White ran out of time; Black wins on time
   *[White] Black ran out of time; White wins on time
} (discs { $score })
export-abandoned = Abandoned by both players (discs { $score })
export-aborted = Aborted: a side never moved (discs { $score })
export-forfeit = { $winner ->
    [Black] White did not make a first move in time; Black wins by forfeit
   *[White] Black did not make a first move in time; White wins by forfeit
} (discs { $score })
export-forfeit-both = Forfeit: neither player made a first move in time; both lose (discs { $score })
export-tally = Tally at this table: { $black ->
    [one] 1 win
   *[other] { $black } wins
} for Black, { $white ->
    [one] 1 win
   *[other] { $white } wins
} for White, { $draws ->
    [one] 1 draw
   *[other] { $draws } draws
}
export-ggf = GGF (one game per round):
export-rounds-omitted = Rounds 1 to { $last } are not written out here; the GGF records at the end have every round.
export-analysis-title = Analysis (search depth { $depth } in the midgame, exact solver { $empties ->
    [one] for the last empty square
   *[other] for the last { $empties } empty squares
}):
export-analysis-move-exact = { $ply }. { $side } { $square } — loss { $loss ->
    [one] 1 disc
   *[other] { $loss } discs
} (exact)
export-analysis-move-search = { $ply }. { $side } { $square } — loss { $loss ->
    [one] 1 disc
   *[other] { $loss } discs
} (estimate)
export-analysis-best = , best { $square }
export-analysis-worst = Worst moves: { $list }
update-ready = A new version of Othello 3D is ready.
update-reload = Reload
crash-text = This page stopped working. Reload it to go on.
crash-reload = Reload
announce-to-move = { $side } to move, { $count ->
    [one] 1 legal move
   *[other] { $count } legal moves
}.
read-row = Row { $row }: { $cells }.
read-column = Column { $column }: { $cells }.
read-diagonal = Diagonal { $name }: { $cells }.
read-range = { $from } to { $to }
read-black = black
read-white = white
read-empty = empty
read-legal = Legal moves: { $squares }.
read-no-legal = You have no legal move now.
read-score = Discs: black { $black }, white { $white }; empty squares: { $empty }.
read-last = Last move: { $side } { $square } flips { $count }: { $flips }.
read-no-last = No move has been played yet.
read-no-clocks = This game has no clocks.
board-use-2d = Use the flat 2D board
board-use-3d = Use the 3D board
rules-keys = Playing by keyboard and screen reader
rules-keys-1 = Tab to the board, then move the cursor with the arrow keys (Home and End go to the ends of the row); Enter or Space plays on the cursor's square.
rules-keys-2 = Without moving: R reads the cursor's row, C its column, D both diagonals through it; L lists your legal moves, S counts the discs, M repeats the last move, T reads the clocks.
rules-keys-3 = Every move is announced with the discs it flipped, then who is to move and how many legal moves they have; passes, the result and low time are announced too.
rules-keys-4 = These keys work while the board has focus (screen readers switch to focus mode there). The button under the board switches the 3D board off for a flat one, remembered in this browser.

## Practise your mistakes (the analysis card)
practice-button = { $count ->
    [one] Practise your mistake
   *[other] Practise your mistakes ({ $count } positions)
}
practice-title = Practise your mistakes
practice-position = Position { $n } of { $total }: move { $number }, { $side ->
    [Black] Black
   *[White] White
} to play.
practice-ask = { $side ->
    [Black] Black
   *[White] White
} played { $square } here and lost { $loss }. Find a better move: click a square.
practice-loss-exact = { $loss ->
    [one] one disc
   *[other] { $loss } discs
} (exact)
practice-loss-estimate = about { $loss ->
    [one] one disc
   *[other] { $loss } discs
}
practice-checking = The engine is scoring every move…
practice-right-best = Well found: { $square } is the best move ({ $value }).
practice-right = Well found: { $square } scores { $value }, and the best, { $best }, scores { $best_value }.
practice-wrong = Not quite: { $square } scores { $value }, { $behind ->
    [one] one disc
   *[other] { $behind } discs
} below the best. Try another move, or show the answer.
practice-wrong-shown = { $square } scores { $value }, { $behind ->
    [one] one disc
   *[other] { $behind } discs
} below the best.
practice-prompt = Click the square of a better move on the board.
practice-best = The best move is { $best } ({ $value }); every move's value is on the board.
practice-on-board = The position is on the board: play your move there.
practice-show = Show the answer
practice-answer = The best move is { $best }: { $value } ({ $kind }). Every move's value is on the board.
practice-line = Best line: { $line }
practice-line-thinking = Finding the best line…
practice-next = Next position
practice-finish = Finish
practice-stop = Back to the game
practice-done = Practice done: you found a good move yourself in { $found } of { $total ->
    [one] one position
   *[other] { $total } positions
}.
practice-again = Practise again
practice-failed = The engine could not score the moves: { $error }

puzzles-title = Puzzles
puzzles-loading = Loading a puzzle…
puzzles-not-found = No such puzzle
puzzles-task = { $side ->
    [Black] Black
   *[White] White
} to play: { $count ->
    [one] find the best move.
   *[other] find the best move, { $count } times (the opponent answers between).
}
puzzles-meta = Puzzle rating { $rating } · { $how }
puzzles-proved = proved by the solver to the end
puzzles-judged = judged by the search { $depth ->
    [one] one move ahead
   *[other] { $depth } moves ahead
}
puzzles-you = Your puzzle rating: { $rating }
puzzles-daily = Puzzle of the day
puzzles-continue = Right: { $square }. The opponent answered { $reply }: find the next move.
puzzles-continue-pass = Right: { $square }. The opponent must pass: find the next move.
puzzles-solved = Solved: every move found.
puzzles-failed = { $square } is not it: the move was { $best }.
puzzles-answer = Best move { $best }: { $value } ({ $kind }); every move's value is written on the board where the solution starts.
puzzles-line = Solution: { $line }.
puzzles-pv = Best line: { $line }.
puzzles-themes = Themes: { $themes }.
puzzles-replay = Play the solution again
puzzles-provisional = A ? after your puzzle rating means it is provisional: it settles after a few more rated puzzles.
puzzles-rating-after = Your puzzle rating: { $rating } ({ $change })
puzzles-unrated = You tried this puzzle before: this try changes no rating.
puzzles-unrated-signed-out = Signed out: sign in or make an account to get a puzzle rating; this try changes no rating.
puzzles-unrated-not-served = Opened by link: only the puzzles the site serves you (Next puzzle, the puzzle of the day) are rated; this try changes no rating.
puzzles-unrated-marked = This account's tries change no puzzle rating.
puzzles-retry = Try again
puzzles-next = Next puzzle
puzzles-streak = Streak: { $count ->
    [one] one puzzle solved
   *[other] { $count } puzzles solved
}
puzzles-streak-over = The streak ends at { $count ->
    [one] one puzzle
   *[other] { $count } puzzles
}.
puzzles-streak-again = Start a new streak
puzzles-streak-start = Start a streak
puzzles-streak-leave = Leave the streak
puzzles-streak-help = In a streak each puzzle is harder than the last, until the first mistake; streaks change no rating.
puzzles-theme-label = Theme
puzzles-theme-any = Any theme
puzzles-theme-corner = corner
puzzles-theme-x-square = X-square
puzzles-theme-c-square = C-square
puzzles-theme-trap = trap
puzzles-theme-parity = parity
puzzles-theme-wipe-out = wipe-out
puzzles-theme-tempo = tempo
puzzles-theme-quiet = quiet move
puzzles-theme-exact = exact endgame
puzzles-theme-midgame = midgame
puzzles-theme-multi-move = several moves
puzzles-history = Your last puzzles
puzzles-history-empty = No puzzle tried yet.
puzzles-history-solved = solved
puzzles-history-failed = failed
offline-puzzles-text = Puzzles work offline too: 500 of them are kept in this browser, judged here; offline tries change no rating.
offline-puzzles-start = Solve puzzles offline
offline-puzzles-of = Puzzle { $n } of { $total }:
offline-puzzles-best = The best move is marked on the board.
offline-puzzles-none = No puzzles are kept in this browser yet: open the site once with the network.
offline-puzzles-failed = The puzzles could not be read: { $error }
lobby-puzzles = Puzzles
lobby-puzzles-text = Positions where one move is clearly best, the answers checked by the engine; each try moves your puzzle rating. From the puzzle of the day, “Next puzzle” serves more near your rating.

report-summary = Report { $name }
report-reason = Reason
report-cheating = Cheating (engine help)
report-boosting = Rating manipulation
report-abuse = Abuse or an offensive name
report-other = Something else
report-text = What happened (at most 500 characters)
report-send = Send the report
report-sent = Thank you: an operator will look at this report.
srv-report-long = A report's text may have at most 500 characters.
srv-report-self = You cannot report yourself.
srv-report-control = A report's text may not hold control or invisible characters.
srv-downloads-busy = Too many downloads at once from your address: wait for one to finish.
srv-report-limit = Too many reports from your address today: try again tomorrow.

## Messages the server sends by key (refusals, limits, protocol errors)

srv-ai-busy = The AI is busy (searches waiting: { $waiting }): try again in a moment.
srv-ai-unavailable = The AI is unavailable right now: try again in a moment.
srv-ai-waiting = You have as many AI searches waiting as allowed ({ $limit }): try again when they finish.
srv-ai-full = The engine is busy (searches waiting or running: { $count }): try again in { $seconds } s.
srv-ai-address-busy = Your address has as many engine searches waiting or running as allowed (limit { $limit }): try again in { $seconds } s.
srv-analysis-read-failed = The server could not read the analysis; please try again.
srv-archive-filter = Filter games by mode (online, vs_ai, hot_seat) and result (won, lost, drawn).
srv-archive-unavailable = The server could not read the archive. Please try again.
srv-busy = The server is busy: try again in a moment.
srv-cannot-pass = { $side } has a legal move and may not pass.
srv-flood = too many requests from your address: slow down and try again in a moment
srv-internal = Something went wrong on the server (reference { $reference }). Please try again.
srv-json-only = commands must be sent as Content-Type: application/json
srv-lab-busy = The lab is unavailable right now; try again.
srv-lab-no-move = The side to move has no legal move.
srv-lab-not-failed = The explanation of { $square } has not failed; there is nothing to retry.
srv-lab-owner-only = Only the visitor who started this lab game can play its turns: watch it, or start your own game in the lab.
srv-lab-stale = The lab game changed meanwhile (in another tab or window); nothing was changed. Look at the board and try again.
srv-lab-unavailable = The lab is unavailable.
srv-lab-unreadable = This lab game cannot be read back; it was left as stored.
srv-malformed = malformed request: { $detail }
srv-malformed-message = malformed message: { $detail }
srv-message-too-large = message too large (limit { $limit } bytes)
srv-missing-argument = malformed request: missing argument { $name }
srv-must-pass = { $side } has no legal move and must pass.
srv-no-catalog = no such catalog
srv-no-game = No such game in the archive.
srv-no-player = No such player.
srv-not-game-id = Not a game id.
srv-not-table-id = that is not a table id
srv-nothing-changed = { $why } Nothing changed.
srv-obf-why-char = unexpected character “{ $found }” at column { $column }
srv-obf-why-length = { $found } cells instead of 64
srv-obf-why-too-many = more than 64 cells
srv-obf-why-other = { $detail }
srv-obf-why-side = the side to move must be X or O, not “{ $found }”
srv-off-board = Square { $square } is not on the board (0–63).
srv-origin-missing = commands need an Origin header naming the site (or Sec-Fetch-Site: same-origin)
srv-origin-refused = commands are accepted only from the site's own pages (Origin not allowed)
srv-queue-control = give both base and inc (seconds), or neither for 3+2
srv-queue-rated = rated is 1 or 0
srv-ratings-unavailable = The server could not read the ratings. Please try again.
srv-search-query = Search by { $min } to { $max } letters, digits, _ or - of a name.
srv-search-limit = Too many searches from your address: wait a minute.
srv-puzzles-unavailable = The server could not reach the puzzles. Please try again.
srv-no-such-puzzle = No such puzzle.
srv-puzzle-limit = Too many puzzle moves from your address: wait a minute.
srv-puzzle-moves = Those are not this puzzle's moves. Load the puzzle again.
srv-puzzle-illegal = { $square } is not a legal move here.
srv-shutting-down = the server is shutting down
srv-socket-flood = too many messages (limit { $limit } per second): the connection is closed
srv-socket-origin = origin not allowed
srv-sockets-address = too many open connections from your address (limit { $limit })
srv-sockets-browser = too many open connections for this browser (limit { $limit }): close other tabs
srv-table-stale = The table changed meanwhile; please try again.
srv-tables-unavailable = the tables are unavailable
srv-too-large = request body too large (limit { $limit } bytes)
srv-unknown-host = this server does not answer for that Host name (start it with --public-url or --allowed-hosts)
srv-unknown-language = Unknown language: the site speaks el (Greek) and en (English).
srv-wrong-method = malformed request: method not allowed: { $method }
offline-move-failed = { $square }: { $error }
srv-changed-meanwhile = This changed meanwhile (in another tab, or by another player); nothing was changed. Look again and retry.
srv-gone = This no longer exists: it was deleted meanwhile.

## Tournaments
lobby-tournaments-open = See the tournaments
tournaments-title = Tournaments
tournaments-rule = A Swiss: every round pairs players with the same score who have not met; with an odd number, one player sits out and scores a win. Standings: points, then the Brightwell quotient (BQ), then discs.
tournaments-none = No tournament yet: create one below.
tournament-open = open
tournament-running = playing
tournament-finished = over
tournament-rated = rated
tournament-casual = casual
tournament-private = private (by link only)
tournament-bots = bots may enter (they join by the Bot API)
tournament-bots-welcome = bots welcome
tournament-facts = { $control } · { $rounds ->
    [one] 1 round
   *[other] { $rounds } rounds
} · { $rated } · { $players ->
    [one] 1 player
   *[other] { $players } players
}
tournament-create = Create a tournament
tournament-sign-in = Tournaments are for signed-in players.
tournament-name = Name
tournament-control = Time control
tournament-rounds = Rounds
tournament-starts-in = Starts in (minutes)
tournament-create-button = Create
tournament-numbers = Rounds and minutes are whole numbers.
tournament-join = Join
tournament-leave = Leave
tournament-withdraw = Withdraw
tournament-starts = Starts { $at }; join before then.
tournament-round = Round { $round } of { $rounds }
tournament-your-game = Your game is ready: play it
tournament-standings = Standings
tournament-bq-rule = BQ: your discs (empty squares to the winner; a resigned or timed-out game at least 33 for the winner) plus { $multiplier } × your opponents' points; a bye counts 32 discs and your own points.
tournament-bq-title = Brightwell quotient
tournament-points = Points
tournament-discs = Discs
tournament-round-short = R{ $round }
tournament-round-title = Round { $round }
tournament-bye = bye (a win)
tournament-playing = playing
tournament-replay = replay
tournament-watch = watch
tournament-export = Crosstable as text
tournament-table-note = A tournament game: no rematch; a player who never moves loses on time.
tournament-back = Back to the tournament
srv-tournaments-unavailable = Tournaments are unavailable for a moment; try again.
srv-tournament-sign-in = Tournaments are for signed-in players: sign in (or create an account) first.
srv-tournament-name = A tournament's name is 1 to { $max } characters, not starting with @.
srv-tournament-rounds = A Swiss has from { $min } to { $max ->
    [one] 1 round
   *[other] { $max } rounds
}.
srv-tournament-start = A tournament starts within { $days } days.
srv-tournament-cap = You have created { $count ->
    [one] 1 tournament
   *[other] { $count } tournaments
} today; that is the most a day.
srv-no-tournament = No such tournament.
srv-tournament-started = This tournament has started: it takes no more players.
srv-tournament-over = This tournament is over.
srv-tournament-not-in = You are not in this tournament.
srv-tournament-no-rematch = A tournament game has no rematch: the tournament pairs the next round.
srv-berserk = { $side } went berserk: half the clock, no increment, and an extra point for a win.
srv-no-berserk = Berserk is for a player in an arena's game, before their first move, once.
tournament-berserk = Berserk
tournament-berserk-hint = Half your clock and no increment, for an extra point if you win with at least 7 moves.
table-berserked = { $side } went berserk
mode-tournament = tournament game, { $control }
tournament-start-now = Start now
srv-tournament-not-yours = Only the player who created this tournament may start it early.
srv-tournament-too-few = A tournament needs at least two players to start.
tournament-daily = Daily Swiss { $control }
tournament-hourly = Hourly Swiss { $control }
tournament-daily-arena = Daily arena { $control }
tournament-hourly-arena = Hourly arena { $control }
tournament-final = Over: the standings are final.
tournament-ended-exhausted = Over after round { $round }: every further pairing would repeat a game (or pair two accounts used from one address or browser), so the standings are final.
tournament-ended-too-few = Over after round { $round }: fewer than two players were left, so the standings are final.
tournament-bq-legacy = This tournament's BQ follows the rule it was published with: a game against an opponent who withdrew keeps its discs, and your own points stand in for theirs.
tournament-bq-withdrawn = A game against an opponent who withdrew: its discs are left out of the BQ, and 32 discs and your own points stand in (as for a bye).
srv-tournament-abuser = This account is marked as a rating abuser: it cannot join a rated tournament (casual ones are open to it).
srv-tournament-no-bots = Bots may not enter this tournament: its creator did not allow them.
srv-tournament-bots-arena = Only an arena can let bots in.
tournament-leaders = The first { $shown } of { $players ->
    [one] { $players } player
   *[other] { $players } players
}, and your own line.
tournament-podium = Podium
tournament-podium-points = Points: { $points }
tournament-place = { $rank } of { $players }, { $points } points

## Challenges
srv-challenges-unavailable = Challenges are unavailable for a moment; try again.
srv-challenge-sign-in = Challenges are for signed-in players: sign in (or create an account) first.
srv-challenge-self = You cannot challenge yourself.
srv-challenge-cap = You already have { $count ->
    [one] 1 challenge
   *[other] { $count } challenges
} waiting for an answer; wait for one or withdraw it.
srv-no-challenge = No such challenge.
srv-challenge-gone = This challenge is no longer open: it was answered, withdrawn, or it expired.
challenge-title = Challenge { $name }
challenge-colour = Your colour
challenge-colour-black = black
challenge-colour-white = white
challenge-colour-random = either (drawn)
challenge-send = Challenge
challenge-random-start = a random balanced start (a few moves in, even by the engine)
challenge-synchro = a synchro pair: two games at once, colours swapped, won by the disc sum
challenge-random-start-short = random start
challenge-synchro-short = synchro pair
synchro-pair = One game of a synchro pair: both players played the same start at once, colours swapped —
synchro-other = the other game
synchro-sum = Disc sum over both games: { $black } { $bsum } – { $wsum } { $white }. { $outcome }
synchro-wins = Winner of the pair: { $name }.
synchro-drawn = The pair is drawn.
synchro-waiting = The disc sum is shown when the other game ends.
synchro-table = This game is one of a synchro pair: the same start is played at once with colours swapped, and the pair is won by the disc sum.
synchro-table-other = Open the other game
challenge-sent = Challenge sent: { $name } sees it on any page they have open. It waits 5 minutes.
challenge-list = Challenges
challenge-incoming = A challenge from { $name }: { $terms }, you play { $colour }.
challenge-accept = Accept
challenge-decline = Decline
challenge-waiting = Waiting for { $name } to answer your challenge ({ $terms }).
challenge-withdraw = Withdraw
challenge-declined = { $name } declined your challenge.
challenge-expired = Your challenge to { $name } is closed (it expired or was withdrawn).
tournament-kind = Format
tournament-kind-swiss = Swiss
tournament-kind-arena = Arena
tournament-minutes = Length (minutes)
tournament-arena-rule = An arena lasts a fixed time: join or leave whenever you like, and you are paired as soon as you are free. A win scores 2, a draw 1; after two wins in a row you are on a streak (×2) and every result counts double until you fail to win.
tournament-arena-facts = arena · { $control } · { $minutes ->
    [one] 1 minute
   *[other] { $minutes } minutes
} · { $rated } · { $players ->
    [one] 1 player
   *[other] { $players } players
}
tournament-arena-ends = Playing until { $at }; join whenever you like.
tournament-games = Games
tournament-pause = Pause (leave the arena)
tournament-on-fire = on a streak: results count double
tournament-wins = Wins
srv-arena-minutes = An arena lasts from { $min } to { $max ->
    [one] 1 minute
   *[other] { $max } minutes
}.

## The analysis board (/analysis)
analysis-board-title = Analysis board
analysis-board-turn = { $side } to move.
analysis-board-editing = Setting up the position: { $side } to move next.
analysis-board-over = Game over: Black { $black }, White { $white }.
analysis-board-passed = { $side } had no move and passed.
analysis-board-tag-book = book
analysis-board-values = Every move's value
analysis-board-thinking = The engine in your browser is scoring every move…
analysis-board-server = Deeper search on the server
analysis-board-server-running = The server is searching…
analysis-board-server-done = Values from the server's deeper search (depth { $depth }); moves from the opening book are marked.
analysis-board-server-exact = Exact values from the server's solver.
analysis-board-best-line = Best line:
analysis-board-moves = Moves
analysis-board-first = Start
analysis-board-back = Back
analysis-board-forward = Forward
analysis-board-no-moves = No moves yet: click a legal square on the board.
analysis-board-variations = Lines explored
analysis-board-graph = Evaluation of the line
analysis-board-graph-label = Black's advantage in discs along the line
analysis-board-graph-legend = Black's advantage in discs at each position of the line whose value is known (above the middle Black is better); the ring is the position shown.
analysis-board-setup = Set up a position
analysis-board-edit = Edit the board
analysis-board-edit-help = Click a square to change it: empty, then Black, then White. Playing from the position you set up starts a new analysis.
analysis-board-to-move = Side to move
analysis-board-clear = Clear the board
analysis-board-initial = Start position
analysis-board-edit-done = Done
analysis-board-paste-label = Paste a position (OBF), a transcript (f5d6c3…) or a GGF game
analysis-board-paste-load = Load
analysis-board-error-empty = There is nothing to load: paste a position, a transcript or a game.
analysis-board-error-position = That is not a position: write 64 squares (X black, O white, - empty), then the side to move (X or O).
analysis-board-error-syntax = “{ $found }” at character { $column } is not a square: write moves like f5d6c3.
analysis-board-error-illegal = Move { $ply } ({ $square }) is not legal there.
analysis-board-error-ggf = That GGF game has no board or moves that can be read.
analysis-board-link = Link to this position
analysis-board-link-text = Open this position and line
analysis-board-lab-link = Study any position on the analysis board
analysis-board-open = Open in the analysis board

# A page's title where it is more than the site (a link preview's, a tab's).
page-title = { $page } · Othello 3D
# What a link preview (a chat app, a social site, a search result) shows for
# a page: the server writes them into the page's head; the page itself does not
# show them.
preview-site = Play Othello on a 3D board: against the AI, with a friend on one screen or online, with puzzles, tournaments and an analysis board.
preview-table-title = A game of Othello
preview-table = Watch the game, or take the free seat if there is one.
preview-puzzles = Find the best move: Othello puzzles from real games, rated by difficulty.
preview-tournaments = Othello arenas and Swiss tournaments, open to everyone who signs in.
preview-analysis = Set up any Othello position and see the value of every move.

# A tournament game being ready, on any page (issue 67).
tournament-paired = Round { $round } of { $name }: your game against { $opponent }.
tournament-paired-go = Go to the game
tournament-paired-close = Close
tournament-see-standings = See the standings
tournament-cell-black = B
tournament-cell-white = W
tournament-cell-bye = bye
tournament-cell-bye-title = A bye: no opponent this round, scored as a win (32 discs).
tournament-cell-title = { $black ->
    [yes] With black
   *[no] With white
} against number { $opponent } of the standings: { $result ->
    [won] won
    [drew] drew
    [lost] lost
   *[playing] being played
}; discs: { $discs }.
tournament-legend = How to read a round's cell: B3+ 40 means black against number 3 of the standings, won, 40 discs. B black, W white; + won, = drew, − lost; bye: no opponent that round, scored as a win.
tournament-bq-sentence = BQ (Brightwell quotient) breaks ties on points: a player's discs plus the points of every opponent they met multiplied by { $multiplier }, so wins against strong players count for more.
tournament-bq-yours = Your BQ: discs { $discs } + { $multiplier } × your opponents' points { $opponents } = { $bq }.
tournament-bq-of = { $name }: discs { $discs } + { $multiplier } × opponents' points { $opponents } = { $bq }
tournament-countdown = (in { $left })

## The site menu on every page
menu-label = Site
menu-button = Menu
menu-play = Play
menu-puzzles = Puzzles
menu-tournaments = Tournaments
menu-analysis = Analysis board
menu-players = Players
menu-lab = AI lab
menu-bots = Bots
bots-title = Bots
bots-intro = Bots are programs (Othello engines) that play here through the Bot API, rated like everyone. Challenge one from its card; a bot answers while it is online.
bots-tag = BOT
bots-profile = A bot: a program plays this account through the Bot API.
bots-online = Online: it answers challenges now.
bots-offline = Offline
bots-none = No bot has joined yet. Any account that has not played can become one on its account page, and any engine speaking NBoard can play through the othello bot command.
bots-board = Bots' leaderboard, { $speed }
bots-board-empty = No bot has a rating at this speed yet.
menu-sign-in = Sign in

## Bot accounts (issue 70): the account page's card and the Bot API's refusals
bot-card-title = Bot account
bot-card-text = A bot account is played by a program (an engine) through the Bot API, never from these pages. An account can become a bot only before it has played any game.
bot-become-warning = This cannot be undone: the account will be a bot for good, and it will no longer be able to play from the site's pages.
bot-become-confirm = I understand: turn this account into a bot for good
bot-become = Turn this account into a bot
bot-is-bot = This account is a bot: it plays through the Bot API, with a token below.
bot-token-label = Token label
bot-token-create = Create a token
bot-token-once = Copy this token now: it is shown only once.
bot-tokens = Tokens
bot-tokens-none = No tokens yet.
bot-token-created = Created
bot-token-last-used = Last used
bot-token-never = never
bot-token-revoked = revoked
bot-token-revoke = Revoke
bot-token-gone = Token revoked: it no longer works.
srv-bots-unavailable = Bot accounts are unavailable for a moment; try again.
srv-bot-sign-in = Bot accounts are for signed-in players: sign in first.
srv-bot-played = This account has already played (or sits at a table): only an account that has never played can become a bot.
srv-bot-already = This account is a bot already.
srv-bot-not-bot = Only a bot account has API tokens: turn the account into a bot first.
srv-bot-label = A token's label must have 1 to { $limit } characters.
srv-bot-token-cap = A bot may hold at most { $limit } tokens: revoke one first.
srv-bot-no-token = No such token (or it was revoked already).
srv-bot-web = A bot account plays through the Bot API, not from the site's pages.
srv-bot-token = Missing, unknown or revoked bot token: send Authorization: Bearer <token>.
srv-bot-rate = Too many requests with this token (limit { $limit } a second): slow down.
srv-bot-not-seated = This bot does not sit at this table.
srv-bot-square = Not a square: { $square } (write it as a1 to h8).
menu-search = Find a player
tournament-sound = Sound when paired
