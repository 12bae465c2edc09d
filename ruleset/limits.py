"""Limits on untrusted input: content folders and saved games.

Content and saves are shared between people, so each is read as if hostile:
every limit here is checked before the work it bounds is done (a file's size
before it is read, a number's length before it is converted, a rule's nesting
before anything recurses over it, a game's numbers before a game is set up).

Each limit is far above what a real game needs; docs/limits.md gives each
number with Fort Sumter's own figure beside it, and a test keeps that page and
this module in step.
"""

from __future__ import annotations

KIB = 1024
MIB = 1024 * KIB

# ------------------------------------------------------------------ files
MAX_FILE_BYTES = 1 * MIB        # one content file (Fort Sumter's largest: 22 KB)
MAX_CONTENT_BYTES = 4 * MIB     # every file of one content folder together (Fort Sumter: 93 KB)
MAX_FILES = 1000                # files read from one content folder (Fort Sumter: 19)

# ------------------------------------------------------------------ YAML
MAX_YAML_DEPTH = 40             # mappings and lists inside each other (Fort Sumter: 6)
MAX_YAML_NODES = 50_000         # values in one file, aliases expanded (Fort Sumter's largest: 981)
MAX_CONTENT_VALUES = 200_000    # values in all the content's files, aliases expanded (Fort Sumter: 5,437)
MAX_NUMBER_DIGITS = 9           # digits of any number in content, rules or saves (999,999,999)

# ------------------------------------------------------------------ rules
MAX_RULE_DEPTH = 100            # levels of a rule's parse tree (Fort Sumter's deepest: 10)
MAX_RULE_CHARS = 256 * KIB      # rule text in one content folder (Fort Sumter: 6 KB)
MAX_EFFECT_DECISIONS = 1000     # decisions one run of one rule can ask for (Fort Sumter's most: 52)
MAX_RULE_WORK = 100_000         # steps of work one run of one rule can take (ruleset/cost.py; Fort Sumter's most: 2,552)
# what the engine may do between two decisions before it stops the game, naming the rule: a
# backstop for MAX_RULE_WORK (a hundred rules at the limit, several seconds of work)
MAX_WORK_BETWEEN_DECISIONS = 10_000_000
MAX_REPEATS = 1000              # passes of one 'repeat while' (the general engine; Fort Sumter's most: 3)
# a whole game of the general engine, every loop at its most passes (ruleset/bound.py): as much as
# the engine may do between two decisions, so even a game that asked nothing could not hang
MAX_GAME_WORK = 10_000_000      # (Fort Sumter: 690,162)

# ------------------------------------------------------------------ catalogs
MAX_MESSAGE_DEPTH = 8           # placeholders nested in plural or choice forms (Fort Sumter: 3)
MAX_CONTRACTIONS = 100          # a language's contractions, each a pass over every text (Fort Sumter: 2)
MAX_CONTRACTION_GROWTH = 4      # times longer a language's contractions together can make a text (Fort Sumter: 1)

# ------------------------------------------------------------------ state.yaml
MAX_SIDES = 8                   # sides of one game (Fort Sumter: 2)
MAX_PLACES = 100                # places of the map (Fort Sumter's spaces: 12)
MAX_GROUPS = 20                 # groups of places (Fort Sumter's dimensions: 4)
MAX_ZONES = 20                  # zones of one track (Fort Sumter's crisis track: 4)
MAX_MARKERS = 20                # markers (Fort Sumter: 1)
MAX_NAME_CHARS = 60             # a name in state.yaml, a card id, the game's name
MAX_COUNTER = 1_000_000         # a counter's lowest and highest value, either way (Fort Sumter's VP: 99)
MAX_TOKENS = 1000               # tokens of a side, in one place, holder or box (Fort Sumter: 25)
MAX_TRACK_SPACES = 1000         # spaces of one track (Fort Sumter's crisis track: 16)
MAX_CARDS = 1000                # cards of one kind, and a pile's limit (Fort Sumter's strategy cards: 40)

# ------------------------------------------------------------------ bots
# The search bot's budget per decision (bots/search.yaml, "search:N" on the command line and in
# a saved game): past these one decision would take hours, which is a hang, not a setting.
MAX_SEARCH_ITERATIONS = 100_000
MAX_SEARCH_MILLISECONDS = 600_000   # ten minutes
# Actions the bots judge or take in one look-ahead (the play carried on from one tried action to
# the next decision of the horizon: its token steps and options, each action of each judged, and
# each action taken): past it, the look-ahead ends where it stands and is judged there.  A rule may
# ask a thousand decisions of hundreds of actions each, and a horizon the game never reaches would
# play every look-ahead to the game's end: without this a bot's one choice could take minutes.
MAX_JUDGED_PER_LOOK_AHEAD = 2_000
# Actions a bot judges or takes in one choice (and the search in judging one node's actions): its
# look-aheads together, and the games it plays out to judge a card of an order.  A look-ahead is
# bounded above, but a choice holds as many as it has actions, and a card of an order is judged
# by games played to the end, each with choices of its own: on a hand of thirty cards a search
# bot's one choice took minutes.  Past it, the rest of the choice is taken unjudged.
MAX_JUDGED_PER_CHOICE = 20_000

# ------------------------------------------------------------------ saves
MAX_SAVE_BYTES = 16 * MIB       # a saved game (a whole game of Fort Sumter: 3.4 KB at most)
MAX_SAVE_DEPTH = 8              # JSON nesting in a saved game (the format itself uses 2)
MAX_SAVE_VALUES = 200_000       # JSON values in a saved game (each costs memory once decoded)
MAX_SEED = 10 ** MAX_NUMBER_DIGITS - 1  # a game's seed: the largest number a saved game holds

# ------------------------------------------------------------------ messages
MAX_TYPED_CHARS = 1000          # a line typed at a prompt (Fort Sumter's longest action: 50)
MAX_SHOWN_CHARS = 60            # of a name or word quoted in an error message
MAX_SHOWN_LINE = 160            # of a source line quoted under an error
