( dagaz's own Axiom layer.

  The declarations, user words, events and engine words that Axiom games are written
  against, implemented for dagaz as docs/axiom.md describes them. It loads on top of the
  Forth kernel, a prelude [dagaz's or CORE.4TH] and the host words of src/axiom/natives/.
  The Rust runtime reads the tables built here straight from VM memory, so their layout
  is fixed: see the comment of each declaration.

  Two words differ from kernel words only by case: the host word `drop` [a piece drop]
  and the user word `here` [the current position], defined last. The VM prefers a word
  spelled exactly as written, but this file does not rely on that: it never says DROP
  [it uses `$drop`, NIP or 2DROP] and reads the dictionary pointer as `DP @`. )

\ ---------------------------------------------------------------------------------------
\ Small tools

: $drop ( x -- ) 0 2DROP ;
: $Align ( -- ) DP @ 3 + -4 AND DP ! ;

\ ---------------------------------------------------------------------------------------
\ Constants

-2140000000 CONSTANT #UnknownScore
-2130000000 CONSTANT #LossScore
          0 CONSTANT #DrawScore
 2130000000 CONSTANT #WinScore

2048  CONSTANT #PlayerBase     \ player k [1-based] has the value k * #PlayerBase
1024  CONSTANT #Neutral        \ set in the value of a {neutral} player
1023  CONSTANT #PieceType      \ 0x3FF: the type bits of a board cell
64512 CONSTANT #Player         \ 0xFC00: player bits with the neutral bit
63488 CONSTANT #PlayerNumber   \ 0xF800: player bits alone
1000  CONSTANT #NoPriority
3     CONSTANT #TurnOrderCells
4     CONSTANT #PieceCells

\ Axiom's other system constants, with Axiom's values. The table sizes are Axiom's
\ limits; dagaz's tables are not bounded by them.
151   CONSTANT #Version        \ the axiom.4th interface this layer follows [1.51]
128   CONSTANT #Directions     \ Axiom's most directions
128   CONSTANT #Moves          \ Axiom's most moves in one {moves block
128   CONSTANT #MaxPriorities  \ Axiom's most move priorities
256   CONSTANT #Turns          \ Axiom's most turns in a {turn-order
32    CONSTANT #Players        \ Axiom's most players [dagaz's: 31]
1024  CONSTANT #Pieces         \ Axiom's most piece types
3     CONSTANT #DepthLimit     \ $NegamaxMove's default depth [`--depth` changes it]
10    CONSTANT #ForeverDepth   \ Axiom's depth when ZoG's thinking time is "forever"
0     CONSTANT #KeepSearching  \ the values of Axiom's search status
1     CONSTANT #StopSoon
2     CONSTANT #StopNow
0     CONSTANT #NoMoveType     \ the move type of a move declared without one
1     CONSTANT #movesCell      \ cell of a piece type's entry: its {moves} block
2     CONSTANT #DropsCell      \ ... its {drops} block
3     CONSTANT #ValueCell      \ ... its {value}
65535 CONSTANT #PiecePlayer    \ 0xFFFF: type and player bits of a board cell
11    CONSTANT #PlayerShift    \ player k is k shifted left this many bits
0     CONSTANT #Empty          \ the value of an empty position
-1    CONSTANT ??              \ the index of an anonymous position

\ ---------------------------------------------------------------------------------------
\ Variables shared with the runtime

VARIABLE $rows               VARIABLE $columns          VARIABLE $flipGrid
VARIABLE $positions          \ number of positions
VARIABLE $boardSize          \ bytes of board memory: position cells, then variables
VARIABLE $board              \ address of the current board
VARIABLE $posNames           \ array: name string of each position
VARIABLE $directions         \ array: CFA of each direction word
VARIABLE $directionCount
VARIABLE $pieces             \ #PieceCells cells per piece type, type 1 first
VARIABLE $pieceCount
VARIABLE $players            \ array: CFA of each player constant
VARIABLE $playerCount
VARIABLE $engines            \ array: engine CFA of each player
VARIABLE $turnOrder          \ #TurnOrderCells cells per turn
VARIABLE $turnLimit          \ byte offset just past the last turn
VARIABLE $repeatOffset       \ byte offset the turn order starts over at
VARIABLE $turnOffset         \ byte offset of the turn being played
VARIABLE $player             VARIABLE $playerName       VARIABLE $playerOffset
VARIABLE $forPlayer          VARIABLE $ofType           VARIABLE $turnNumber
VARIABLE $movesList          VARIABLE $lastMoveType     VARIABLE $moveType
VARIABLE $from               VARIABLE $pos              VARIABLE $piece
VARIABLE $partial            VARIABLE $passed           VARIABLE $lastPos
VARIABLE $move-priorities    VARIABLE $priority
VARIABLE $boardSetup         VARIABLE $passTurnForced
VARIABLE $scanPositions      \ positions the scan visits [{dummy-positions}], 0: all
VARIABLE $scanPieceCount     \ piece types the scan visits [{dummy-pieces}], 0: all
VARIABLE $posCount           \ number of {position}s [grid cells aside]
VARIABLE $lastPosNFA         \ header of the last {position}

\ Axiom's directives and search variables. dagaz accepts the directives and ignores
\ them: they steer ZoG's interface [$gameLog: a log file; $shareMovesList,
\ $combinePartial, $gameResultBug, $authoring] or ZoG's clock [$searchTime, $variety].
\ The search sets $searching and $playerToMove [OnSearch], $depthLimit and
\ $iterationDepth [$NegamaxMove].
VARIABLE $gameLog            VARIABLE $shareMovesList   VARIABLE $combinePartial
VARIABLE $gameResultBug      VARIABLE $authoring        VARIABLE $searchTime
VARIABLE $variety            VARIABLE $depthLimit       VARIABLE $iterationDepth
VARIABLE $searching          VARIABLE $playerToMove
VARIABLE $add-move           \ the word a pass is listed with; the runtime sets add-move
-1 $shareMovesList !  -1 $combinePartial !  -1 $gameResultBug !  3 $depthLimit !

\ ---------------------------------------------------------------------------------------
\ Making named words at run time
\
\ Several declarations make words whose name is not the next word of the input: grid
\ positions, names already read by -FIND, the words `{symmetry}` redefines. They are made
\ with HEADER from a string and then given the code field of a word of the wanted kind.

0 CONSTANT $sample-constant
' $sample-constant @ CONSTANT $constCode

: $HeaderFrom ( code str -- ) HEADER LATEST NFA>CFA ! ;
: $Header ( code -- ) BL WORD PAD $HeaderFrom ;
: $NamedConstant ( value str -- ) $constCode SWAP $HeaderFrom , ;
: $NameOf ( cfa -- str ) CFA>NFA @ ;

\ A scratch list of cells. A declaration block whose entries are interleaved with new
\ words in the dictionary gathers them here and copies them out in one piece at its end.

16384 CONSTANT $keepLimit
CREATE $kept $keepLimit CELLS ALLOT
VARIABLE $keptCount

: $ClearKept ( -- ) 0 $keptCount ! ;
: $KeptAt ( i -- addr ) CELLS $kept + ;
: $Keep ( x -- )
   $keptCount @ $keepLimit < 0= ABORT" a declaration block has too many entries"
   $keptCount @ $KeptAt !  $keptCount ++ ;
: $CopyKept ( -- addr )
   $Align DP @  $kept OVER $keptCount @ CELLS CMOVE  $keptCount @ CELLS ALLOT ;

\ ---------------------------------------------------------------------------------------
\ Players and turns

: $OffsetOf ( player -- offset ) #PlayerNumber AND #PlayerBase / 1- CELLS ;

\ Makes the turn at byte offset `offset` of the turn order the current one.
: $SetTurn ( offset -- )
   DUP $turnOffset !
   $turnOrder @ +
   DUP @ DUP EXECUTE DUP $player ! $OffsetOf $playerOffset !
   $NameOf $playerName !
   DUP CELL+ @ EXECUTE $forPlayer !
   2 CELLS + @ $ofType ! ;

: turn-offset ( -- offset ) $turnOffset @ ;
: next-turn-offset ( -- offset )
   $turnOffset @ #TurnOrderCells CELLS +
   DUP $turnLimit @ < 0= IF $drop $repeatOffset @ THEN ;
: turn-offset-to-player ( offset -- player ) $turnOrder @ + @ EXECUTE ;
: next-player ( -- player ) next-turn-offset turn-offset-to-player ;
: turn-number ( -- n ) $turnNumber @ ;

\ ---------------------------------------------------------------------------------------
\ The move list [built by the host] and the engines
\
\ $movesList points to [0][count][first move]. The accessors below place a move record's
\ cells: [next][notation][type][unused][code ...]; the runtime builds records to match.

: $FirstMove ( -- move ) $movesList @ 2 CELLS + @ ;
: $NextMove ( move -- move' ) @ ;
: .moveString ( move -- addr ) CELLSIZE + ;
: .moveType ( move -- addr ) 2 CELLS + ;
: .moveCFA ( move -- xt ) 4 CELLS + ;
: move-count ( -- n ) $movesList @ DUP IF CELL+ @ THEN ;
: stalemate? ( -- ? ) move-count 0= ;

: $Choose ( move -- ) .moveString @ BestMove! ;

: $FirstMoveEngine ( -- ) move-count IF $FirstMove $Choose THEN ;

: $RandomMoveEngine ( -- )
   move-count ?DUP IF
      0 SWAP 1- RAND-WITHIN  $FirstMove SWAP
      BEGIN ?DUP WHILE 1- SWAP $NextMove SWAP REPEAT
      $Choose
   THEN ;

\ Lets the engine of the player to move choose.
: OnSearch ( -- )
   $engines @ 0= ABORT" the game declares no players"
   $searching ON  $player @ $playerToMove !
   $engines @ $playerOffset @ + @ EXECUTE
   $searching OFF ;

: searching? ( -- ? ) $searching @ ;
: player-to-move ( -- player ) $playerToMove @ ;

\ Prints the move list, one `[notation]` a line.
: $OutputMoves ( -- )
   $FirstMove BEGIN ?DUP WHILE
      91 EMIT  DUP .moveString @ TYPE  93 EMIT CR  $NextMove
   REPEAT ;

\ ---------------------------------------------------------------------------------------
\ {board ... board}
\
\ Positions are CONSTANTs numbered from 0 in the order declared: the grid first, then
\ each {position}. Board variables and arrays live in board memory after the position
\ cells, so that cloning a board clones them too.

VARIABLE $boardOpen
CREATE $nameBuf 64 ALLOT

: $NeedOpenBoard ( -- )
   $boardOpen @ 0= ABORT" positions and board variables belong between {board and board}" ;

: {board ( -- )
   0 $positions !  0 $boardSize !  0 $rows !  0 $columns !  0 $board !  0 $posNames !
   0 $posCount !  0 $scanPositions !
   $ClearKept  $boardOpen ON ;

: $NewPosition ( str -- )
   $NeedOpenBoard
   $boardSize @ $positions @ CELLS <>
   ABORT" declare every position before the first board variable"
   $positions @ SWAP $NamedConstant
   LATEST @ $Keep
   $positions ++  CELLSIZE $boardSize +! ;

\ The name of a grid cell: column letter, then the row number in decimal.
: $GridName ( row column -- str )
   97 + $nameBuf C!
   BASE @ >R DECIMAL (NUMBER) R> BASE !
   PAD $nameBuf 1+ "MOVE  $nameBuf ;

\ Index i holds row `rows - i / columns` [or `i / columns + 1` under $flipGrid] and
\ column `i mod columns`.
: {grid} ( rows columns -- )
   $positions @ ABORT" {grid} must come before any other position"
   DUP 1 < ABORT" a grid needs at least one column"
   DUP 26 > ABORT" a grid has at most 26 columns"
   OVER 1 < ABORT" a grid needs at least one row"
   $columns !  $rows !
   $rows @ $columns @ * 0 DO
      I $columns @ /
      $flipGrid @ IF 1+ ELSE $rows @ SWAP - THEN
      I $columns @ MOD
      $GridName $NewPosition
   LOOP ;

: {position} ( -- )
   BL WORD PAD $NewPosition  $posCount ++  LATEST $lastPosNFA ! ;

\ The positions declared so far are the ones move generation visits; those declared
\ after it exist for the program alone.
: {dummy-positions} ( -- ) $positions @ $scanPositions ! ;

: $BoardSlot <BUILDS , DOES> @ $board @ + ;
: $BoardArray <BUILDS , DOES> @ $board @ + SWAP CELLS + ;

: {variable} ( -- ) $NeedOpenBoard  $boardSize @ $BoardSlot  CELLSIZE $boardSize +! ;
: {array} ( n -- ) $NeedOpenBoard  $boardSize @ $BoardArray  CELLS $boardSize +! ;

\ n {carray} NAME: n bytes of board memory, `NAME ( i -- addr )` the address of byte i.
\ The size is rounded up to whole cells, so that what follows stays aligned.
: $BoardBytes <BUILDS , DOES> @ $board @ + + ;
: {carray} ( n -- )
   $NeedOpenBoard  $boardSize @ $BoardBytes  3 + -4 AND $boardSize +! ;

\ The board is preceded by one cell: the board it was cloned from, 0 for this one.
: board} ( -- )
   $NeedOpenBoard
   $positions @ 0= ABORT" the board has no positions"
   $CopyKept $posNames !
   $Align 0 ,  DP @ $board !  $boardSize @ ALLOT
   $board @ $boardSize @ ERASE
   $scanPositions @ 0= IF $positions @ $scanPositions ! THEN
   $boardOpen OFF ;

: $CloneBoard ( -- )
   $Align  $board @ ,
   $board @ DP @ $boardSize @ CMOVE
   DP @ $board !  $boardSize @ ALLOT ;

\ Returns to the board this one was cloned from, and frees everything allotted since.
: $DeallocateBoard ( -- )
   $board @ CELLSIZE - DUP @ ?DUP IF
      $board ! DP !
   ELSE
      TRUE ABORT" $DeallocateBoard: no cloned board to free"
   THEN ;

: $RootBoard ( -- ) BEGIN $board @ CELLSIZE - @ ?DUP WHILE $board ! REPEAT ;

: $IsPosition? ( cfa -- ? )
   DUP @ $constCode = IF
      DUP CFA>PFA @ DUP $positions @ U< IF
         CELLS $posNames @ + @ SWAP $NameOf =
      ELSE 2DROP FALSE THEN
   ELSE $drop FALSE THEN ;

: $ParsePosition ( -- pos )
   ' DUP $IsPosition? 0= ABORT" expected the name of a position" CFA>PFA @ ;

\ ---------------------------------------------------------------------------------------
\ {directions ... directions}
\
\ A direction word's body is its link table, one cell per position [the position it
\ leads to, or -1], followed by the CFA of the direction declared before it [0 for the
\ first]: directions} turns that chain into the $directions array.

VARIABLE $lastDirection

: $DirectionWord <BUILDS DOES> ( table -- ? )
   $pos @ DUP $positions @ U< IF
      CELLS + @ DUP 0< IF 0 AND ELSE $pos ! TRUE THEN
   ELSE 2DROP FALSE THEN ;
$DirectionWord $sample-direction
' $sample-direction @ CONSTANT $dirCode

: $NeedBoard ( -- ) $board @ 0= ABORT" declare the board before directions" ;
: $Chain ( -- ) $lastDirection @ ,  LATEST NFA>CFA $lastDirection ! ;
: $NextDirection ( cfa -- cfa' ) CFA>PFA $positions @ CELLS + @ ;

\ Where one grid step leads from index i, or -1.
: $GridTarget ( dr dc i -- j )
   DUP $rows @ $columns @ * < IF
      $columns @ /MOD  >R + R> ROT +
      DUP $rows @ U< >R  OVER $columns @ U< R> AND IF
         $columns @ * +
      ELSE 2DROP -1 THEN
   ELSE 2DROP $drop -1 THEN ;

: {directions ( -- ) $NeedBoard ;

\ Row offsets count rows of the index grid: -1 goes one row up the screen.
: {direction} ( row-offset column-offset -- )
   $NeedBoard
   $dirCode $Header
   $positions @ 0 DO 2DUP I $GridTarget , LOOP 2DROP
   $Chain ;

: $IsDirection? ( nfa -- ? ) DUP IF NFA>CFA @ $dirCode = THEN ;

: {link} ( -- )
   $NeedBoard
   -FIND DUP $IsDirection? IF
      NFA>CFA
   ELSE
      $drop  $dirCode PAD $HeaderFrom
      $positions @ 0 DO -1 , LOOP  $Chain
      LATEST NFA>CFA
   THEN
   CFA>PFA $ParsePosition CELLS +  $ParsePosition SWAP ! ;

\ {unlink} DIRECTION POSITION: the direction leads nowhere from POSITION (as a grid's
\ edge does); links made later may lead somewhere again.
: {unlink} ( -- )
   $NeedBoard
   -FIND DUP $IsDirection? 0= ABORT" expected the name of a direction"
   NFA>CFA CFA>PFA $ParsePosition CELLS +  -1 SWAP ! ;

: $CountDirections ( -- n )
   0 $lastDirection @ BEGIN ?DUP WHILE SWAP 1+ SWAP $NextDirection REPEAT ;

: directions} ( -- )
   $CountDirections DUP $directionCount !
   $Align DP @ $directions !  CELLS ALLOT
   $directionCount @ $lastDirection @
   BEGIN ?DUP WHILE
      SWAP 1- SWAP
      2DUP SWAP CELLS $directions @ + !
      $NextDirection
   REPEAT $drop ;

\ ---------------------------------------------------------------------------------------
\ {players ... players}
\
\ Players are CONSTANTs: k * #PlayerBase for the k-th declared [neutral ones OR
\ #Neutral]. A later {players block replaces the list, as variant files do after
\ loading their game; it makes new constants with the same values.

CREATE $playerList 32 CELLS ALLOT
CREATE $engineList 32 CELLS ALLOT
VARIABLE $turnOrderDeclared

: {players ( -- ) 0 $playerCount ! ;

: $AddPlayer ( bits -- )
   $playerCount @ 31 < 0= ABORT" a game has at most 31 players"
   $playerCount @ 1+ #PlayerBase * OR
   $constCode $Header ,
   LATEST NFA>CFA  $playerCount @ CELLS $playerList + !
   ['] $NegamaxMove  $playerCount @ CELLS $engineList + !
   $playerCount ++ ;

: {player} ( -- ) 0 $AddPlayer ;
: {neutral} ( -- ) #Neutral $AddPlayer ;

: $SetEngine ( xt -- )
   $playerCount @ 0= ABORT" an engine is named after a {player} name"
   $playerCount @ 1- CELLS $engineList + ! ;
: {random} ( -- ) ['] $RandomMoveEngine $SetEngine ;
: {first} ( -- ) ['] $FirstMoveEngine $SetEngine ;
: {search-engine} ( -- ) ' $SetEngine ;
: {UCT} ( -- ) ['] $UCTMove $SetEngine ;

\ Without a {turn-order, every player but the neutral ones moves once, in order.
: $DefaultTurnOrder ( -- )
   $ClearKept
   $playerCount @ 0 DO
      I CELLS $playerList + @
      DUP EXECUTE #Neutral AND IF $drop ELSE DUP $Keep $Keep 0 $Keep THEN
   LOOP
   $CopyKept $turnOrder !  $keptCount @ CELLS $turnLimit !  0 $repeatOffset ! ;

: players} ( -- )
   $playerCount @ 0= ABORT" {players declares no player"
   $playerList $players !  $engineList $engines !
   $turnOrderDeclared @ 0= IF $DefaultTurnOrder THEN ;

: player-index ( player -- i ) #PlayerNumber AND #PlayerBase / 1- ;
: player-count ( -- n ) $playerCount @ ;

: $IsPlayer? ( cfa -- ? )
   FALSE $playerCount @ ?DUP IF
      0 DO OVER I CELLS $playerList + @ = OR LOOP
   THEN NIP ;

: $ParsePlayer ( -- cfa ) ' DUP $IsPlayer? 0= ABORT" expected the name of a player" ;

\ ---------------------------------------------------------------------------------------
\ {symmetries PLAYER {symmetry} dirA dirB ... symmetries}
\
\ The player is an ordinary word left on the stack; every {symmetry} [dirA and dirB
\ swap] and {asymmetry} [dirA means dirB] applies to the player on top. Both
\ directions are replaced by dispatching words of the same name,
\ whose body is [the plain direction][one direction per player, by $playerOffset].

VARIABLE $symDepth
VARIABLE $nfaA
VARIABLE $nfaB

: $SymmetricWord <BUILDS DOES> ( body -- ? )
   CELL+ $playerOffset @ 0 MAX 124 MIN + @ EXECUTE ;
$SymmetricWord $sample-symmetric
' $sample-symmetric @ CONSTANT $symCode

\ The plain direction behind a direction or dispatching word.
: $RawDirection ( nfa -- cfa )
   DUP 0= ABORT" {symmetry} names an unknown word"
   NFA>CFA DUP @ $dirCode = IF ELSE
      DUP @ $symCode <> ABORT" {symmetry} names a word that is not a direction"
      CFA>PFA @
   THEN ;

\ The body of the dispatching word for the direction at nfa, made on first use.
: $Dispatcher ( nfa -- body )
   DUP NFA>CFA @ $symCode = IF NFA>PFA ELSE
      DUP $RawDirection SWAP @
      $symCode SWAP $HeaderFrom
      DUP , 32 0 DO DUP , LOOP $drop
      LATEST NFA>PFA
   THEN ;

: {symmetries ( -- ) DEPTH $symDepth ! ;

: {symmetry} ( player -- player )
   DEPTH $symDepth @ > 0= ABORT" {symmetry} needs a player before it"
   DUP #PlayerNumber AND 0= ABORT" {symmetry} needs a player before it"
   -FIND $nfaA !  -FIND $nfaB !
   DUP $OffsetOf CELL+
   $nfaB @ $RawDirection OVER $nfaA @ $Dispatcher + !
   $nfaA @ $RawDirection OVER $nfaB @ $Dispatcher + !
   $drop ;

\ PLAYER {asymmetry} dirA dirB: for the player, dirA means dirB; dirB keeps its meaning
\ (Axiom's one-way form, as a ZRF `(symmetry P (a b))` without `(b a)`).
: {asymmetry} ( player -- player )
   DEPTH $symDepth @ > 0= ABORT" {asymmetry} needs a player before it"
   DUP #PlayerNumber AND 0= ABORT" {asymmetry} needs a player before it"
   -FIND $nfaA !  -FIND $nfaB !
   DUP $OffsetOf CELL+
   $nfaB @ $RawDirection SWAP $nfaA @ $Dispatcher + ! ;

: symmetries} ( -- ) BEGIN DEPTH $symDepth @ > WHILE $drop REPEAT ;

\ ---------------------------------------------------------------------------------------
\ Move types: CONSTANTs numbered from 1, made when a name is first used as one. $moveType
\ holds the highest number given. Each one's body is [value][previous move type CFA].

VARIABLE $lastTypeWord
VARIABLE $priorityCount      \ move priorities listed so far
VARIABLE $priorityCells      \ length of the $move-priorities array

\ A fresh $move-priorities array for types 0 .. $moveType, keeping known priorities.
: $NewPriorityArray ( -- )
   $Align DP @
   $moveType @ 1+ 0 DO
      I $priorityCells @ < IF $move-priorities @ I CELLS + @ ELSE #NoPriority THEN ,
   LOOP
   $move-priorities !  $moveType @ 1+ $priorityCells ! ;

: $IsMoveType? ( cfa -- ? )
   $lastTypeWord @
   BEGIN DUP IF 2DUP <> ELSE FALSE THEN WHILE CFA>PFA CELL+ @ REPEAT
   NIP 0<> ;

: $NewMoveType ( -- type )
   $moveType ++
   $moveType @ DUP PAD $NamedConstant
   $lastTypeWord @ ,  LATEST NFA>CFA $lastTypeWord !
   $move-priorities @ IF $NewPriorityArray THEN ;

: $ParseMoveType ( -- type )
   -FIND DUP IF
      NFA>CFA DUP $IsMoveType? IF CFA>PFA @ ELSE $drop $NewMoveType THEN
   ELSE $drop $NewMoveType THEN ;

\ ---------------------------------------------------------------------------------------
\ {turn-order {turn} P [{for-player} Q] [{of-type} T] [{repeat}] ... turn-order}
\
\ Each turn is [player CFA][for-player CFA][of-type or 0].

: {turn-order ( -- ) $ClearKept 0 $repeatOffset ! ;
: {turn} ( -- ) $ParsePlayer DUP $Keep $Keep 0 $Keep ;
: $LastTurn ( -- addr )
   $keptCount @ #TurnOrderCells < ABORT" this word follows a {turn}"
   $keptCount @ #TurnOrderCells - $KeptAt ;
: {for-player} ( -- ) $ParsePlayer $LastTurn CELL+ ! ;
: {of-type} ( -- ) $ParseMoveType $LastTurn 2 CELLS + ! ;
: {repeat} ( -- ) $keptCount @ CELLS $repeatOffset ! ;
: turn-order} ( -- )
   $keptCount @ 0= ABORT" {turn-order declares no turn"
   $repeatOffset @ $keptCount @ CELLS < 0= ABORT" {repeat} must be followed by a {turn}"
   $CopyKept $turnOrder !  $keptCount @ CELLS $turnLimit !
   $turnOrderDeclared ON ;

\ ---------------------------------------------------------------------------------------
\ {moves NAME {move} WORD [{move-type} T] ... moves}
\
\ NAME is made at moves} as a CREATE word whose body is [count] then [move CFA][type or 0]
\ per entry.

CREATE $blockName 256 ALLOT
VARIABLE $movesOpen

: {moves ( -- ) BL WORD PAD $blockName "MOVE  $ClearKept  $movesOpen ON ;
: {move} ( -- )
   $movesOpen @ 0= ABORT" {move} belongs between {moves and moves}"
   ' $Keep 0 $Keep ;
: {move-type} ( -- )
   $movesOpen @ 0= $keptCount @ 2 < OR ABORT" {move-type} follows a {move} WORD"
   $ParseMoveType $keptCount @ 1- $KeptAt ! ;
: moves} ( -- )
   $movesOpen @ 0= ABORT" moves} without {moves"
   $blockName HEADER  $keptCount @ 2/ ,  $CopyKept $drop
   $movesOpen OFF ;

\ ---------------------------------------------------------------------------------------
\ {move-priorities {move-priority} T ... move-priorities}
\
\ $move-priorities @ is indexed by move type: the first type listed gets 1, the next 2;
\ types not listed, and moves without a type, get #NoPriority.

: {move-priorities ( -- )
   0 $priorityCount !  0 $priorityCells !  $NewPriorityArray ;
: {move-priority} ( -- )
   $ParseMoveType  $priorityCount ++
   $priorityCount @ SWAP CELLS $move-priorities @ + ! ;
: move-priorities} ( -- ) ;

\ ---------------------------------------------------------------------------------------
\ {pieces {piece} NAME [{moves} BLOCK] [{drops} BLOCK] [n {value}] ... pieces}
\
\ Piece types are CONSTANTs 1, 2, ..; type t has cells [CFA][moves block][drops block]
\ [value] at $pieces @ + [t - 1] * #PieceCells cells.

VARIABLE $piecesOpen

: {pieces ( -- ) $ClearKept  0 $pieceCount !  0 $scanPieceCount !  $piecesOpen ON ;
: {piece} ( -- )
   $piecesOpen @ 0= ABORT" {piece} belongs between {pieces and pieces}"
   $pieceCount @ 1+ DUP $constCode $Header ,  $pieceCount !
   LATEST NFA>CFA $Keep  0 $Keep  0 $Keep  1 $Keep ;
: $LastPiece ( -- addr )
   $piecesOpen @ 0= $keptCount @ #PieceCells < OR ABORT" this word follows a {piece} NAME"
   $keptCount @ #PieceCells - $KeptAt ;
: {moves} ( -- ) ' $LastPiece CELL+ ! ;
: {drops} ( -- ) ' $LastPiece 2 CELLS + ! ;
: {value} ( n -- ) $LastPiece 3 CELLS + ! ;
\ The piece types declared so far are the ones move generation scans.
: {dummy-pieces} ( -- ) $pieceCount @ $scanPieceCount ! ;
: pieces} ( -- )
   $piecesOpen @ 0= ABORT" pieces} without {pieces"
   $pieceCount @ 0= ABORT" {pieces declares no piece"
   $CopyKept $pieces !  $piecesOpen OFF
   $scanPieceCount @ 0= IF $pieceCount @ $scanPieceCount ! THEN ;

: $IsPiece? ( cfa -- ? )
   FALSE $pieceCount @ ?DUP IF
      0 DO OVER I #PieceCells * CELLS $pieces @ + @ = OR LOOP
   THEN NIP ;

: piece-index ( piece -- i ) #PieceType AND 1- ;

: piece-value ( piece -- value )
   #PieceType AND DUP 1- $pieceCount @ U< IF
      1- #PieceCells * CELLS $pieces @ + 3 CELLS + @
   ELSE $drop 0 THEN ;

\ ---------------------------------------------------------------------------------------
\ {board-setup {setup} PLAYER PIECE POSITION ... board-setup}
\
\ $boardSetup @ is [count] then, per entry, the name strings of the player, the piece
\ and the position; the runtime looks the names up when a game starts. As in Axiom,
\ the piece is only a name here: a DEFERred word set to a piece later (Ordo's
\ `{setup} Light MAN a2` before `' Man IS MAN`) is run when the game starts, and what it
\ gives must then be a piece.

VARIABLE $setupOpen

: {board-setup ( -- ) $Align DP @ $boardSetup ! 0 ,  $setupOpen ON ;
: {setup} ( -- )
   $setupOpen @ 0= ABORT" {setup} belongs between {board-setup and board-setup}"
   $ParsePlayer $NameOf ,
   ' $NameOf ,
   ' DUP $IsPosition? 0= ABORT" expected the name of a position" $NameOf ,
   $boardSetup @ ++ ;
: board-setup} ( -- ) $setupOpen OFF ;

\ ---------------------------------------------------------------------------------------
\ User words: where the move is, what is there, whose it is

: from ( -- pos ) $from @ ;
: home ( pos -- ) $from ! ;
: to ( pos -- ) $pos ! ;
: back ( -- ) $from @ $pos ! ;
: last ( -- pos ) $lastPos @ ;

: current-piece ( -- piece ) $piece @ ;
: current-piece-type ( -- type ) $piece @ #PieceType AND ;
: current-player ( -- player ) $player @ ;
: for-player ( -- player ) $forPlayer @ ;
: of-type ( -- type ) $ofType @ ;

: piece-at ( pos -- piece ) board[] @ ;
: piece ( -- piece ) $pos @ board[] @ ;
: piece-type ( -- type ) piece #PieceType AND ;
: piece-type-at ( pos -- type ) piece-at #PieceType AND ;
: not-piece-type? ( type -- ? ) piece-type <> ;
: not-piece-type-at? ( type pos -- ? ) piece-type-at <> ;

: player ( -- player ) piece #PlayerNumber AND ;
: player-at ( pos -- player ) piece-at #PlayerNumber AND ;

: empty? ( -- ? ) piece 0= ;
: empty-at? ( pos -- ? ) piece-at 0= ;
: not-empty? ( -- ? ) piece 0<> ;
: not-empty-at? ( pos -- ? ) piece-at 0<> ;

: friend? ( -- ? ) player current-player OnFriends? ;
: enemy? ( -- ? ) piece IF friend? 0= ELSE FALSE THEN ;
: friend-at? ( pos -- ? ) player-at current-player OnFriends? ;
: enemy-at? ( pos -- ? ) DUP piece-at IF friend-at? 0= ELSE $drop FALSE THEN ;
: friend-of? ( pos player -- ? ) SWAP player-at SWAP OnFriends? ;
: enemy-of? ( pos player -- ? ) OVER piece-at IF friend-of? 0= ELSE 2DROP FALSE THEN ;
: neutral-piece? ( -- ? ) piece #Neutral AND 0<> ;
: neutral-piece-at? ( pos -- ? ) piece-at #Neutral AND 0<> ;

\ Abandons the move being generated unless the flag is true.
: verify ( ? -- ) 0= IF $Exit THEN ;

\ ---------------------------------------------------------------------------------------
\ Partial moves and passes
\
\ `partial` and `partial-move-type` run while a move is generated: they compile code into
\ the move, which runs when the move is made.

: (partial) ( -- ) $partial ON ;
\ The move is partial, and the turn's next part makes moves of type `type` only.
: (partial-move-type) ( type -- ) $ofType !  $partial ON ;
: partial ( -- ) COMPILE (partial)  S"  partial" ^string ;
: partial-move-type ( type -- ) COMPILE-LITERAL COMPILE (partial-move-type) ;

\ ^" TEXT": in a definition, notes TEXT in the move's notation when it runs [as
\ `^string`]; outside one, prints it.
: (^") ( -- ) R> DUP DUP "SIZE + >R ^string ;
: ^" ( -- )
   34 WORD STATE @ IF COMPILE (^") PAD HERE "MOVE PAD "SIZE ALLOT ELSE PAD TYPE THEN ;
   IMMEDIATE

\ Lists a pass, whether or not one was listed.
: $Pass ( -- ) $passed ON S" Pass" ^string add-move ;
: Pass ( -- ) $passed @ 0= IF $Pass THEN ;
: PassNoPartial ( -- ) $partial @ 0= IF Pass THEN ;

\ ---------------------------------------------------------------------------------------
\ Events. Games redefine them; the runtime calls the latest definition.

: $NewGame ( -- )
   $board @ 0= ABORT" the game declares no board"
   $RootBoard  $board @ $boardSize @ ERASE
   0 $turnNumber !  $passed OFF
   \ (Checked here, not in `$SetTurn`: `OnNextTurn` then does nothing a trace of it
   \ cannot replay.)
   $turnOrder @ 0= ABORT" the game declares no turn order"
   0 $SetTurn  $partial OFF ;

: OnNewGame ( -- ) ;
: OnGenerateMoves ( -- ) ;
: OnIsGameOver ( -- score ) stalemate? IF #DrawScore ELSE #UnknownScore THEN ;
: OnEvaluate ( -- score ) 0 ;
: OnIsTerminal? ( -- ? ) FALSE ;
: OnNextTurn ( -- )
   $player @  next-turn-offset $SetTurn  $partial OFF  $EngineSetTurn ;
: OnRetractMove ( -- ) $DeallocateBoard ;
: OnEditAdd ( player type pos -- )
   >R #PieceType AND SWAP #Player AND OR R> board[] ! ;
: OnEditRemove ( pos -- ) 0 SWAP board[] ! ;

\ ---------------------------------------------------------------------------------------
\ Reserves, ring buffers, the end of the runtime

\ _amount-in-reserve holds a word that gives the address of a reserve's count [a
\ {variable}]; `remove-from-reserve` in a move word makes the move take one from it.
VARIABLE _amount-in-reserve
: remove-from-reserve, ( -- ) _amount-in-reserve @ ?DUP IF EXECUTE -1 SWAP +! THEN ;
: remove-from-reserve ( -- ) COMPILE remove-from-reserve, ;

\ Prints a ring buffer's items, emptying it.
: ringbuffer-dump ( -- )
   CR BEGIN ringbuffer-empty? 0= WHILE ringbuffer-remove-item . REPEAT ;
: ringbuffer2-dump ( -- )
   CR BEGIN ringbuffer2-empty? 0= WHILE ringbuffer2-remove-item . REPEAT ;

: RANDOMIZE2 ( -- ) SYSTEM-TIME SEED2! ;

\ The last word of the runtime: what follows is the game.
: axiomFence ( -- ) ;

\ Last, because it hides HERE from everything defined after it.
: here ( -- pos ) $pos @ ;
