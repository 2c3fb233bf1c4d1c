---@meta overmind
-- The Overmind Lua API for behaviour, alien type, token, ability and trigger scripts,
-- as LuaLS type stubs.
-- Generated from the definitions that bind the API (scripting/src/api); do not edit.
-- Regenerate: cargo run -- api --lua > behaviours/types/overmind.d.lua
-- Reference: docs/API.md. Scripts also have the sandbox's safe Lua library
-- (docs/SANDBOX.md); math.random draws from the game's seeded RNG.

---The kind of a square (docs/RULES.md §2); `game:terrain` returns it.
---@alias Terrain "plain"|"red"|"green"|"yellow"|"building"|"solid"

---A Special Combat Effect (docs/RULES.md §6.6).
---@alias Effect "knock_down"|"push_back"|"shaken"|"stun"

---A side of the game.
---@alias Side "heroes"|"overmind"

---What a token is for (docs/RULES.md §14).
---@alias TokenClass "hazard"|"item"|"exploration"|"marker"

---A deck of cards (docs/RULES.md §15).
---@alias Deck "mutation"|"hidden_agenda"|"hazard"|"item"|"exploration"

---What a card is played on (docs/RULES.md §15.3).
---@alias CardTarget "none"|"alien"|"hero"|"square"

---The kind of an attack (`moment.attack`).
---@alias AttackKind "melee"|"shoot"|"overwatch"|"free_attack"|"fear"|"psychic"

---A status `game:set_status` sets or clears.
---@alias StatusName "knocked_down"|"stunned"

---A stat `game:modify` changes.
---@alias Stat "movement"|"melee"|"defence"|"shoot"

---How long a `game:modify` lasts: to the end of the unit's activation, or of the round.
---@alias Until "activation"|"round"

---What `game:modify_attack` changes: the attack's dice, or the target's Defence.
---@alias AttackRoll "dice"|"defence"

---What `behaviour { ... }`, `alien_type { ... }` and the other definitions return: the script returns it.
---@class Definition

---Defines one Alien Behaviour (`behaviours/*.lua`).
---@param def BehaviourDef The behaviour's card and its `perform` function.
---@return Definition # The definition; the script must return it.
function behaviour(def) end

---Defines one Alien Type (`aliens/*.lua`).
---@param def AlienTypeDef The Alien Type's card.
---@return Definition # The definition; the script must return it.
function alien_type(def) end

---Defines one kind of token on squares: a hazard, an item, a Building Exploration event or a
---marker (`tokens/*.lua`).
---@param def TokenDef The token kind and what it does.
---@return Definition # The definition; the script must return it.
function token(def) end

---Defines one hero profile's ability (`abilities/*.lua`).
---@param def AbilityDef The ability, the hero profile that has it and what it does.
---@return Definition # The definition; the script must return it.
function ability(def) end

---Defines one game-wide rule of the pack, in force in every mission played with it
---(`triggers/*.lua`).
---@param def TriggerDef The rule and what it does.
---@return Definition # The definition; the script must return it.
function trigger(def) end

---Defines one card of a deck: a Mutation card the Overmind draws and plays, or a Hidden Agenda it
---is dealt (`cards/*.lua`).
---@param def CardDef The card, its deck and what playing it does.
---@return Definition # The definition; the script must return it.
function card(def) end

---The Overmind's view of the game, passed to `perform` and to every hook function as `game`.
---Queries answer from the state as it is now; handles in the results are snapshots. Effects
---(`damage`, `heal`, `place_token`, ...) change the game outside the rules' own steps: each is
---checked first and announced by an `effect` event naming the script (docs/RULES.md §14). Arrays
---come in a defined order (game order: units as they entered the game, models within a unit).
---Every decision the rules leave to the Overmind goes to its controller (a person, the AI or a
---test), exactly as native behaviours ask it.
---@class Game
---@field rules Rules The game's rule settings.
---@field storage table What this behaviour (or token, ability, alien type or trigger script) keeps between calls: a table of plain values (nil, booleans, numbers, strings and tables of these, with integer or string keys), part of the game state (saved, replayed, copied for look-ahead). Each script id has its own. Change its contents (`game.storage.n = (game.storage.n or 0) + 1`); when the call ends, also by an error, it is checked and kept. Anything else in it (a function, a handle, a table with a metatable or a cycle, NaN, more than 10,000 values or 1 MiB of strings, tables deeper than 32) fails the behaviour, and the storage keeps its earlier contents. Nothing else a script holds outlives the call.
---@field round integer The current round, from 1.
---@field width integer Columns of the map (x runs 0 to width - 1).
---@field height integer Rows of the map (y runs 0 to height - 1).
local Game = {}

---All Heroes.
---@return Model[] # Every Hero model on the map.
function Game:heroes() end

---All revealed Alien models.
---@return Model[] # Every Alien model on the map, the performing unit's too.
function Game:aliens() end

---All Blips still face down.
---@return Blip[] # Every face-down Blip.
function Game:blips() end

---A model by id: the way to see where a model is now.
---@param id string A model id.
---@return Model? # A fresh handle, or nil when no such model is on the map.
function Game:model(id) end

---A unit by id.
---@param id string A unit id (e.g. `model.unit`).
---@return Unit? # nil when there is no such unit.
function Game:unit(id) end

---A face-down Blip by id.
---@param id string A Blip id.
---@return Blip? # nil when no such Blip is face down.
function Game:blip(id) end

---The Heroes a unit can see (a unit sees what any of its models sees).
---@param unit Unit Whose sight.
---@return Model[] # Hero models some model of the unit has in Line of Sight.
function Game:visible_heroes(unit) end

---The Heroes that can see a unit (Line of Sight is symmetric).
---@param unit Unit Who is seen.
---@return Model[] # Hero models that have some model of the unit in Line of Sight.
function Game:heroes_seeing(unit) end

---The candidate closest to the unit by legal path (steps to a square next to it; 0 when already
---adjacent). Ties are the Overmind's choice, asked with `prompt`.
---@param unit Unit Measured from its models.
---@param models Model[] The candidates.
---@param prompt string? The question a tie asks the Overmind (default `"Several are equally close: which one?"`).
---@return Model? # nil when `models` is empty.
function Game:closest(unit, models, prompt) end

---Asks the Overmind in which order the unit's models act (docs/RULES.md §8.1: a unit of several
---models moves model by model in the Overmind's order).
---@param unit Unit Usually the performing unit.
---@param prompt string? The question each pick asks the Overmind (default `"Which model acts next?"`).
---@return Model[] # The unit's models in the order the Overmind picks.
function Game:model_order(unit, prompt) end

---Line of Sight between two squares, with the models and Blips on the map now. Raises an error for
---a square off the map.
---@param a Model|Blip|Pos One square.
---@param b Model|Blip|Pos The other.
---@return boolean # True when a straight line joins them past no wall or obstacle (docs/RULES.md §3).
function Game:los(a, b) end

---Distance for ranges (docs/RULES.md §4.1).
---@param a Model|Blip|Pos One square.
---@param b Model|Blip|Pos The other.
---@return integer # King-move count of squares, ignoring terrain: the game's range.
function Game:distance(a, b) end

---Steps of a shortest legal path between two squares.
---@param from Model|Blip|Pos Start square (its occupant never blocks).
---@param to Model|Blip|Pos Destination square.
---@return integer? # Legal steps, or nil when there is no path (an occupied destination has none: use `steps_to_adjacent`).
function Game:path_distance(from, to) end

---Steps of a shortest legal path to a square adjacent to `to`.
---@param from Model|Blip|Pos Start square.
---@param to Model|Blip|Pos The square to end next to (usually occupied).
---@return integer? # Legal steps, or nil when no square next to it can be reached.
function Game:steps_to_adjacent(from, to) end

---The kind of a square (docs/RULES.md §2).
---@param square Model|Blip|Pos A square.
---@return Terrain # Off the map: `"solid"`.
function Game:terrain(square) end

---The squares of one kind (docs/RULES.md §2): one call, where a loop over the map calling
---`game:terrain` makes one a square.
---@param terrain Terrain Which kind of square.
---@return Pos[] # Every square of that kind, row by row from the top-left (`y`, then `x`).
function Game:squares(terrain) end

---Is a square inside a building?
---@param square Model|Blip|Pos A square.
---@return boolean # True when the square is part of a building.
function Game:in_building(square) end

---An Overmind decision among options. A single option is taken without asking.
---@generic T
---@param prompt string The question, as the Overmind's controller sees it.
---@param options T[] Handles, squares, strings or numbers.
---@return T? # The chosen option itself, or nil when `options` is empty (nothing is asked).
function Game:choose(prompt, options) end

---A yes/no Overmind decision (for behaviours that say "may").
---@param prompt string A yes/no question.
---@return boolean # The Overmind's answer.
function Game:confirm(prompt) end

---Writes a line to the game's event log (a `log` event of the performing unit, or of a hook's
---moment's unit), e.g. why a behaviour could not be carried out.
---@param message string At most 500 characters are kept.
function Game:log(message) end

---All tokens (docs/RULES.md §14).
---@return Token[] # Every token in play, carried ones too, in the order they came into play.
function Game:tokens() end

---The tokens on a square.
---@param square Model|Blip|Pos A square.
---@return Token[] # The tokens lying there (not those carried).
function Game:tokens_at(square) end

---An effect: `model` loses `n` Health (all of it that model's, not allocated as an attack's damage
---is), dying at 0; `after_damage` and `killed` triggers follow. Raises an error for a model not on
---the map.
---@param model Model|string The model hurt (a handle or its id).
---@param n integer Health it loses (1 to 20).
function Game:damage(model, n) end

---A Psychic attack (docs/RULES.md §6.8), for abilities: no Line of Sight or range needed, the
---target rolls no Defence unless `defence` says it may, hits allocated as any attack's; an
---`attack` event of kind `psychic`. On a Blip it is a damage-triggered reveal: the revealed unit
---takes the damage, then its behaviour (§7.6). Made in an Alien Behaviour it rolls the behaviour
---penalty. Raises an error for a unit or target not on the map, or a target of the unit's own
---side.
---@param unit Unit|string The attacking unit (a Hero's or an Alien Unit), on the map.
---@param target Model|Unit|Blip|string A model of the other side (a unit: its first model), or, for a Hero, a face-down Blip.
---@param options { cv: integer, defence: boolean? } `cv`: the attack's Combat Value (1 to 20); `defence = true` lets the target roll its Defence.
function Game:psychic_attack(unit, target, options) end

---An effect (docs/RULES.md §15.8): the top card of a Hazard, Item or Exploration deck is drawn
---face up (`card_turned`) and its `play(game, ctx)` runs at once, for the side of `unit` (the
---Heroes' when none); an empty draw pile takes its discard pile, shuffled. How an item token or a
---building explored draws its card.
---@param deck "hazard"|"item"|"exploration" The event deck.
---@param unit Unit|string|nil The unit that draws it (its card's `ctx.unit`), if any.
---@param square Model|Blip|Pos|nil Where (its card's `ctx.at`), if anywhere.
---@return string? # The card drawn, or nil when the mission deals no such deck (or it holds no card).
function Game:draw_card(deck, unit, square) end

---An effect: `model` gets back up to `n` Health.
---@param model Model|string The model healed (a handle or its id).
---@param n integer Health to give back (1 to 20).
---@return integer # The Health it got back: never above its starting Health, so 0 for an unhurt model.
function Game:heal(model, n) end

---An effect: sets or clears a status of `model` (docs/RULES.md §6.6).
---@param model Model|string The model (a handle or its id).
---@param status StatusName Which status.
---@param on boolean `true` sets it, `false` clears it.
function Game:set_status(model, status, on) end

---An effect: a stat modifier (a stat never goes below 0 for it). The log names it when it is made
---and when it ends.
---@param model Model|string The model (a handle or its id).
---@param stat Stat Which stat (`shoot`: the CV of every band).
---@param change integer How much (-10 to 10, not 0).
---@param duration Until `"activation"`: until the end of its unit's current (or next) activation; `"round"`: until the end of the round.
function Game:modify(model, stat, change, duration) end

---In a `before_attack` hook only: a stated modifier of the attack about to roll, which the roll
---names with this script as its source.
---@param what AttackRoll `"dice"`: the attack's dice; `"defence"`: the target's Defence.
---@param change integer How much (-10 to 10, not 0).
function Game:modify_attack(what, change) end

---An effect: a new Alien Unit enters the game, revealed.
---@param type_id string A loaded Alien Type.
---@param square Model|Blip|Pos A free square for its first model.
---@param n integer Models (1 to the type's `unit.max`); the Overmind places the others next to the first.
---@return Unit? # The new Alien Unit (nil if it is gone already).
function Game:spawn_unit(type_id, square, n) end

---An effect: a new face-down Blip; the log names only its square.
---@param square Model|Blip|Pos A free square.
---@param holds string A loaded Alien Type's id, or `"decoy"`.
---@param size integer? Models of the unit it holds (1 to the type's `unit.max`; default `unit.max`).
---@return string # The new Blip's id (a Hero that sees its square reveals it at once).
function Game:spawn_blip(square, holds, size) end

---An effect: puts a token on a square.
---@param kind string A loaded token kind (`token { id = ... }`).
---@param square Model|Blip|Pos A square on the map that is not solid (a token never blocks).
---@return Token # The new token.
function Game:place_token(kind, square) end

---An effect: takes a token out of play (off the map or out of a model's hands).
---@param token Token|string The token (its table or its id).
function Game:remove_token(token) end

---An effect: `model` picks `token` up and carries it; it drops it where it dies.
---@param model Model|string Who picks it up (a handle or its id).
---@param token Token|string A token lying on the model's square or next to it.
function Game:take_token(model, token) end

---An effect: the unit gets back `n` of the actions it used this activation.
---@param unit Unit|string The unit (a handle or its id).
---@param n integer Actions (1 or 2).
function Game:give_actions(unit, n) end

---An effect: the unit loses `n` of the actions it has left this activation.
---@param unit Unit|string The unit (a handle or its id).
---@param n integer Actions (1 or 2).
function Game:take_actions(unit, n) end

---An effect, for a `victory_check` hook: the game ends now with `side` the winner. Nothing happens
---once the game is over.
---@param side Side Who wins.
---@param reason string Why, for the log and the summary (at most 200 characters are kept).
function Game:declare_winner(side, reason) end

---A Hero or an Alien Unit (one or more models). `perform` receives the performing Alien Unit; only
---it can act (move, attack, Fear Attack) and answer the melee questions. Handles compare equal
---(`==`) when they name the same unit.
---@class Unit
---@field id string The unit's id (an Alien Unit takes its Blip's id).
---@field side "heroes"|"overmind" Whose unit it is.
---@field alive boolean Has the unit a model left on the map? Read live: false once all its models were killed. Acting with a unit that has none raises an error saying who killed them.
---@field kind string? Its Alien Type id (Hero profile id for a Hero); nil once it has no models.
---@field type UnitType? The stats of its type (`unit.type.movement`, `unit.type.shoot.long.range`): its Alien Type's, or for a Hero its profile's. Read from the loaded content at each read; nil once it has no models.
---@field overwatch "full"|"weak"|nil The Overwatch token it holds (docs/RULES.md §6.5: `"full"` when Overwatch was its activation's first action, `"weak"` when its second, one die fewer), or nil; as when the handle was made. It fires once, then it is gone.
local Unit = {}

---The unit's models.
---@return Model[] # Its models now, in the unit's order (empty when it is gone).
function Unit:models() end

---Is the performing unit in Melee Combat?
---@return boolean # True when some model of it is adjacent to a Hero.
function Unit:in_melee() end

---The Heroes the performing unit could Melee now (adjacent, in Line of Sight).
---@return Model[] # Hero models, in game order.
function Unit:melee_targets() end

---The Heroes the performing unit could Shoot now (in range and Line of Sight, not adjacent).
---@return Model[] # Hero models, in game order.
function Unit:shoot_targets() end

---The performing unit's Melee attack: every model of it that can fight the target adds its CV. At
---most one per behaviour. Raises an error when no model is adjacent with Line of Sight, when the
---target is a Blip, on the Overmind's side or killed, when the unit has no model left, or when it
---already made its Melee attack.
---@param target Model A Hero model.
---@param options AttackOptions? `{ penalty = n }`: dice fewer (never fewer than the rules' behaviour penalty).
function Unit:melee(target, options) end

---The performing unit's Shoot attack: every model that can shoot the target adds its CV for the
---range band. At most one per behaviour. Raises an error when no model has the target in range and
---Line of Sight, or it is adjacent, or when the unit has no model left.
---@param target Model A Hero model.
---@param options AttackOptions? `{ penalty = n }`: dice fewer (never fewer than the rules' behaviour penalty).
function Unit:shoot(target, options) end

---A Fear Attack on one Hero: the unit rolls its Fear CV, the Hero its Defence; any hit left Shakes
---the Hero. Once per Hero per behaviour; raises an error when the unit has no Fear or the target
---is not a Hero.
---@param hero Model A Hero model.
function Unit:fear(hero) end

---Destroy Wall (docs/RULES.md §5.4): the performing unit's XXL model, standing orthogonally
---against a building's wall along a whole side of its base, puts a Ruined Wall on both edges (an
---opening two squares wide) and the building becomes a Ruin; the Overmind chooses when several
---walls qualify (decision `wall`), and a Blip now in a Hero's sight is revealed at once. Raises an
---error when the unit has no XXL model, it is Stunned, or no wall qualifies.
function Unit:destroy_wall() end

---Moves every model of the performing unit towards the target, one by one in the order the
---Overmind picks (`game:model_order`); a model killed meanwhile is skipped. Raises an error when
---the unit has no model left.
---@param target Model|Unit|Blip|Pos|(Model|Blip|Unit)[]|Pos[] As for `Model:move_towards`.
---@param steps integer? Most squares each model moves; default all it may still move.
---@param prompt string? The question a tie among a model's end squares asks the Overmind.
---@return integer # Squares moved by all models together.
function Unit:move_towards(target, steps, prompt) end

---Moves every model of the performing unit away from the target as `Model:move_away_from` does,
---one by one in the order the Overmind picks (`game:model_order`); a model killed meanwhile is
---skipped. Raises an error when the unit has no model left.
---@param target Model|Unit|Blip|Pos|(Model|Unit|Blip|Pos)[] As for `Model:move_away_from`.
---@param steps integer? Most squares each model moves; default all it may still move.
---@param prompt string? The question a tie among a model's end squares asks the Overmind.
---@return integer # Squares moved by all models together.
function Unit:move_away_from(target, steps, prompt) end

---The stats of a unit's type, as `unit.type` reads them: for an Alien Unit its Alien Type's card
---(the numbers of `alien_type { ... }`), for a Hero its profile's, with Melee and Defence at the
---Hero's Health when it was read (the Health dial). Read-only; the stats are those of the game's
---loaded content, so a reloaded card shows its new numbers at the next read.
---@class UnitType
---@field id string The Alien Type id or Hero profile id (`unit.kind`).
---@field name string The name on the card.
---@field movement integer Movement: squares a Move action may take.
---@field melee integer Melee CV (a Hero's at its Health).
---@field defence integer Defence CV (a Hero's at its Health).
---@field health integer The type's full Health (a model's own is `model.health`).
---@field fear integer Fear CV for Fear Attacks (0 for none, and for every Hero).
---@field shoot ShootBands? Its Shoot attack as a fresh table `{ short = { range =, cv = }, long = { range =, cv = } }`; nil when it has none.
local UnitType = {}

---A figure on the map — a Hero or one model of an Alien Unit — as it was when the API returned
---the handle. Fields are a snapshot (but `alive`, read live): after a move, `game:model(model.id)`
---gives a fresh one. Handles compare equal (`==`) when they name the same model. Only models of
---the performing unit can move, and only while alive.
---@class Model
---@field id string The model's id, e.g. `"B3.1"` (a Hero's model id is the Hero's id).
---@field unit string The id of the unit the model belongs to (`game:unit(model.unit)`).
---@field kind string Its Alien Type id, or its Hero profile id.
---@field side "heroes"|"overmind" Whose model it is.
---@field x integer Its column (0 at the left).
---@field y integer Its row (0 at the top).
---@field pos Pos Its square as a fresh `{ x =, y = }` table.
---@field xxl boolean Is it an XXL model (docs/RULES.md §4.4: its base fills the 2×2 squares whose top-left square is `pos`)?
---@field health integer Its Health (when the handle was made).
---@field knocked_down boolean Is it Knocked Down (docs/RULES.md §6.6: its next Move action is spent standing up; it cannot attack before)?
---@field stunned boolean Is it Stunned (docs/RULES.md §6.6: as Knocked Down, but it recovers by an Interact action and cannot defend against Melee)?
---@field shaken boolean Is it Shaken (docs/RULES.md §6.6: it may not attack the unit that Shook it this round)?
---@field shaken_by string? The id of the unit that Shook it, or nil when it is not Shaken.
---@field alive boolean Is the model still on the map? Read live, not from the snapshot: false once it was killed (by Overwatch during its own move, say). Any action with a killed model raises an error saying who killed it.
local Model = {}

---Moves this model of the performing unit up to `steps` squares, as close to the target as it can
---get by legal paths. Equally good end squares are the Overmind's choice. Raises an error when
---`steps` is more than the behaviour allows (`max_move`, else Movement) for this model, or when a
---target square is off the map.
---@param target Model|Unit|Blip|Pos|(Model|Blip|Unit)[]|Pos[] Handles: end next to one of them (they are obstacles). Squares: end on one of them.
---@param steps integer? Most squares to move; default all the model may still move in this behaviour.
---@param prompt string? The question a tie among end squares asks the Overmind (default `"where does <model> end its move?"`).
---@return integer # Squares actually moved (a reveal or Overwatch can cut a move short).
function Model:move_towards(target, steps, prompt) end

---Moves this model of the performing unit up to `steps` squares by a legal path to the square it
---can reach that is farthest from the target (the nearest of its squares, by `game:distance`: the
---game's range), with the fewest steps; equally good end squares are the Overmind's choice, as for
---`move_towards`. The move is checked by the rules like every move (walls, solid squares, models;
---Overwatch and Free Attacks happen). Raises an error when `steps` is more than the behaviour
---allows for this model, or when a target square is off the map.
---@param target Model|Unit|Blip|Pos|(Model|Unit|Blip|Pos)[] What to keep away from: handles (a unit: each of its models) and squares, in any mix.
---@param steps integer? Most squares to move; default all the model may still move in this behaviour.
---@param prompt string? The question a tie among end squares asks the Overmind (default `"where does <model> end its move?"`).
---@return integer # Squares actually moved (0 when no reachable square is farther; a reveal or Overwatch can cut a move short).
function Model:move_away_from(target, steps, prompt) end

---The squares `move_away_from(target, steps)` would choose among, without moving: a query. Raises
---the errors `move_away_from` would.
---@param target Model|Unit|Blip|Pos|(Model|Unit|Blip|Pos)[] As for `move_away_from`.
---@param steps integer? Most squares; default all the model may still move in this behaviour.
---@return Square[] # The equally good end squares, by row then column, each with `steps` to reach it (the model's own square alone when none is farther).
function Model:reachable_away_from(target, steps) end

---Moves this model of the performing unit to a square by a shortest legal path. Raises an error
---when there is no legal path or it is longer than the model may still move.
---@param x integer|Pos The column, or the square itself.
---@param y integer? The row, when `x` is a column.
---@return integer # Squares actually moved.
function Model:move_to(x, y) end

---The squares this model of the performing unit can reach with the moves it has left in this
---behaviour, nearest first.
---@return Square[] # Every square within the moves left, with `steps` to reach it (its own square first, with 0).
function Model:reachable() end

---How many more squares this model of the performing unit may move in this behaviour.
---@return integer # Squares.
function Model:move_left() end

---A face-down Blip Token. `id`, `x`, `y`, `pos` and `movement` are free to read. Reading any other
---field reveals the Blip first, exactly as when the Overmind needs a Blip's stat (docs/RULES.md
---§7.3: a reveal by the Overmind, cause `stat`, which may trigger the revealed unit's own
---behaviour at once), and then answers from the revealed unit; a Decoy answers `decoy = true` and
---nil for the rest. A Blip is an obstacle; behaviours cannot attack it.
---@class Blip
---@field id string The Blip's id (a revealed unit keeps it as its unit id). Free to read.
---@field x integer Its column. Free to read.
---@field y integer Its row. Free to read.
---@field pos Pos Its square. Free to read.
---@field movement integer Every Blip's Movement (`rules.blip_movement`, 5), whatever it holds. Free to read.
---@field type string? REVEALS. The Alien Type id of the unit it held; nil for a Decoy.
---@field decoy boolean REVEALS. True when it was a Decoy (it is removed).
---@field unit Unit? REVEALS. The unit it held; nil for a Decoy.
---@field size integer REVEALS. How many models the revealed unit has now (0 for a Decoy).
---@field health integer? REVEALS. Health of the revealed unit's first model; nil for a Decoy.
---@field defence integer? REVEALS. Defence CV of the revealed unit's Alien Type; nil for a Decoy.
---@field melee integer? REVEALS. Melee CV of the revealed unit's Alien Type; nil for a Decoy.
---@field fear integer? REVEALS. Fear CV of the revealed unit's Alien Type; nil for a Decoy.
local Blip = {}

---The game's rule settings (the pack's `rules.toml` over RULES.md's defaults; see docs/RULES.md).
---Read-only.
---@class Rules
---@field los "exact"|"centre" The Line of Sight rule.
---@field overmind_reveal_trigger "hero_shoot_range"|"unit_shoot_range"|"always"|"never" Which reveals the Overmind causes trigger a behaviour.
---@field max_dice integer Most Combat dice ever rolled.
---@field blip_movement integer Movement of every Blip Token.
---@field decoys integer Decoy Tokens per mission unless the mission says.
---@field behaviour_penalty integer Dice fewer for an attack made as part of an Alien Behaviour (at least).
---@field weak_overwatch_penalty integer Dice fewer for a weak Overwatch shot.
---@field building_penalty integer Dice fewer shooting into a building from outside.
---@field red_defence integer Defence change on a red square (negative).
---@field green_defence integer Defence change against an attack across a green side.
---@field rush_steps integer Squares RUSH moves.
---@field take_cover_steps integer Reach of TAKE COVER.
---@field blip_deploy_radius integer How far from a Blip marker a Blip may deploy, in a mission deployed by the rules (docs/RULES.md §7.2).
---@field max_behaviour_depth integer Most behaviours nested inside behaviours.
---@field max_rounds integer Round limit when a mission names none.
---@field lua_instructions integer Lua instruction budget per behaviour call or script load.
---@field lua_step_instructions integer Lua instructions all the calls of one game step may spend (public calls and face-down cards' hooks counted apart).
---@field lua_memory_mib integer Lua memory budget, MiB.
---@field lua_call_depth integer Lua nested call budget.
---@field hand_size integer Most cards the Overmind holds.
---@field hand_draw integer Cards the Overmind draws at the start of its phase, up to `hand_size`.
---@field interrupt_discard integer Cards the Overmind discards to interrupt the Hero phase.
local Rules = {}

---What `behaviour { ... }` takes: one Alien Behaviour card.
---@class BehaviourDef
---@field id string The id alien types list it by: `a-z`, `0-9`, `_`.
---@field name string The name printed on the card, e.g. `"RUSH"`.
---@field text string The card's rule text, shown to players.
---@field max_move integer? Most squares one model may move during the behaviour (0 to 50); default its Movement.
---@field perform fun(unit: Unit, game: Game) Carries the behaviour out for the performing unit. Raising an error fails the behaviour where it failed: what it did before stands, and the log records why.
---@field ai_score (fun(unit: Unit, game: Game): number)? A hint for the look-ahead AI (`standard`, `strong`): a number added to this behaviour's play-out score for the unit now (positive: choose it more). It runs on a throw-away copy of the game, so what it does is not kept.

---What `alien_type { ... }` takes: one Alien Type card (per-model stats).
---@class AlienTypeDef
---@field id string The id missions and Blips name it by: `a-z`, `0-9`, `_`.
---@field name string The name on the card.
---@field unit Makeup The unit's make-up.
---@field movement integer Movement (0 to 20).
---@field melee integer Melee CV (0 to 20).
---@field defence integer Defence CV (0 to 20).
---@field health integer Health (1 to 100).
---@field fear integer? Fear CV for Fear Attacks (0 to 20, default 0).
---@field shoot ShootBands? Its Shoot attack; none when absent.
---@field melee_effects Effect[]? Special Combat Effects of its Melee attacks.
---@field shoot_effects Effect[]? Special Combat Effects of its Shoot attacks.
---@field behaviours string[]? Ids of the Alien Behaviours it may perform; the Overmind picks one per triggered reveal.
---@field xxl boolean? An XXL model (docs/RULES.md §4.4): its base fills 2×2 squares, named by the top-left one; it moves as a block, is adjacent to whatever touches its base, ignores the four Special Combat Effects and may Destroy Wall (§5.4). Default false.
---@field on AlienHooks? Abilities of the type: triggers that run for its units' moments (a unit of the type activates, steps, is revealed, attacks, is hurt, is killed).

---How a Blip's unit of this type is made up.
---@class Makeup
---@field max integer Up to this many models of the type (1 to 12).
---@field leader string? Id (`a-z`, `0-9`, `_`) of an alien type one model of which leads the unit.

---A Shoot attack's two bands; a target within the short range must be shot with the short CV.
---@class ShootBands
---@field short Band The short band.
---@field long Band The long band (its range at least the short one's).

---One range band of a Shoot attack.
---@class Band
---@field range integer Reach in squares (0 to 50).
---@field cv integer Combat Value (dice) in this band (0 to 20).

---What `token { ... }` takes: one kind of token on squares (`tokens/*.lua`), placed by missions
---and scripts.
---@class TokenDef
---@field id string The id missions and `game:place_token` name it by: `a-z`, `0-9`, `_`.
---@field name string The name players see, e.g. `"Acid pool"`.
---@field class TokenClass What it is for.
---@field symbol string How the map draws it: one printable ASCII character, not a letter or digit (those are units) nor one the map uses (`.rgyb#?|-+=:*X`), and not another token kind's.
---@field text string What it does, shown to players.
---@field on TokenHooks? What it does: hooks that run for moments about a token of this kind (`step` onto it, `interact` with it).

---What `ability { ... }` takes: a hero profile's ability (`abilities/*.lua`), triggers that run
---for moments about that Hero.
---@class AbilityDef
---@field id string The ability's id (its `game.storage` and the log name it): `a-z`, `0-9`, `_`.
---@field name string The name players see.
---@field text string What it does, shown to players.
---@field hero string The id of the hero profile that has it (`heroes/*.toml`; a loaded pack must define it).
---@field on AbilityHooks What it does, hook by hook.

---What `trigger { ... }` takes: a game-wide rule of the pack (`triggers/*.lua`), in force in every
---mission played with it.
---@class TriggerDef
---@field id string The rule's id (its `game.storage` and the log name it): `a-z`, `0-9`, `_`.
---@field name string The name players see.
---@field text string What it does, shown to players.
---@field on Hooks? What it does, hook by hook: every moment of the hook (not those about a token). A rule has `on`, `resolution` or both.
---@field resolution (fun(r: Resolution))? A campaign's Resolution Phase, after the core's (docs/RULES.md §16.3): change `r` (the Heroes' Health, XP and Items, the Overmind's Upgrade Nodes) and add lines to `r.log`. Called outside any game: no `game`, no `math.random`.

---What `card { ... }` takes: one card (`cards/*.lua`) of a deck a mission deals (its `decks =
---[...]`). A `mutation` card is drawn into the Overmind's hand and played (`play CARD [TARGET]`);
---a `hidden_agenda` is dealt face down, one per game, and acts through its hooks; a `hazard`,
---`item` or `exploration` card is drawn face up when a Hazard token is destroyed or content calls
---`game:draw_card`, and its `play` applies at once (docs/RULES.md §15.8).
---@class CardDef
---@field id string The card's id (commands, `game.storage` and the log name it): `a-z`, `0-9`, `_`.
---@field name string The name players see.
---@field text string What it does, shown to players.
---@field deck Deck Its deck: `mutation`, `hidden_agenda`, `hazard`, `item` or `exploration`.
---@field target CardTarget? What `play` names with it: `none` (the default), `alien` (a revealed Alien Unit), `hero`, or `square`.
---@field copies integer? Copies of it in its deck, 1 (the default) to 10.
---@field play (fun(game: Game, ctx: PlayContext))? What playing it does, run as a hook is (same sandbox, budgets and `game.storage`); an error ends it there (`card_failed` with its `path:line`) and what it did before stands. A `mutation`, `hazard`, `item` or `exploration` card needs `play` or `on`; a drawn card's `ctx.unit` is the unit that drew it and `ctx.at` the square.
---@field on CardHooks? Hooks that act while the card is in play (a played card until the end of the round; a Hidden Agenda all game: its `victory_check` or `round_end` may `game:declare_winner("overmind", ...)`).

---What `on = { ... }` of a `trigger { ... }` takes: a function per moment the rule acts at, called
---as `function(game, moment)` for every such moment of the game (not those about a token), with
---the same sandbox, budgets and `game.storage` as a behaviour (one storage per script id). An
---error ends that call only: what it did before stands and the log records `trigger_failed` with
---its `path:line`.
---@class Hooks
---@field round_start (fun(game: Game, moment: Moment))? A round began (round 1: just before its first action).
---@field round_end (fun(game: Game, moment: Moment))? The Overmind phase ended, and the round with it.
---@field phase_start (fun(game: Game, moment: PhaseMoment))? A side's phase began.
---@field phase_end (fun(game: Game, moment: PhaseMoment))? A side's phase ended.
---@field activation_start (fun(game: Game, moment: UnitMoment))? A unit's activation began (with its first action).
---@field activation_end (fun(game: Game, moment: UnitMoment))? A unit's activation ended.
---@field step (fun(game: Game, moment: StepMoment))? A model entered a square, moving or moved (entering a building is entering its first square): every square of a path. Killing, stunning, knocking down or moving the model stops its move there.
---@field reveal (fun(game: Game, moment: RevealMoment))? A Blip was revealed and its unit placed.
---@field before_attack (fun(game: Game, moment: AttackMoment))? An attack is about to roll (the unit is the attacker's): `game:modify_attack` changes its dice or the target's Defence.
---@field after_damage (fun(game: Game, moment: DamageMoment))? A model lost Health (once per model per attack or effect).
---@field killed (fun(game: Game, moment: KilledMoment))? A model was killed.
---@field victory_check (fun(game: Game, moment: Moment))? After everything that may end the game: `game:declare_winner` ends it.

---What `on = { ... }` of an `alien_type { ... }` takes: hooks (as `Hooks`) that run for the
---moments about a unit of the type: it activates, steps, is revealed, attacks, is hurt, is killed.
---@class AlienHooks
---@field activation_start (fun(game: Game, moment: UnitMoment))? A unit's activation began (with its first action).
---@field activation_end (fun(game: Game, moment: UnitMoment))? A unit's activation ended.
---@field step (fun(game: Game, moment: StepMoment))? A model entered a square, moving or moved (entering a building is entering its first square): every square of a path. Killing, stunning, knocking down or moving the model stops its move there.
---@field reveal (fun(game: Game, moment: RevealMoment))? A Blip was revealed and its unit placed.
---@field before_attack (fun(game: Game, moment: AttackMoment))? An attack is about to roll (the unit is the attacker's): `game:modify_attack` changes its dice or the target's Defence.
---@field after_damage (fun(game: Game, moment: DamageMoment))? A model lost Health (once per model per attack or effect).
---@field killed (fun(game: Game, moment: KilledMoment))? A model was killed.

---What `on = { ... }` of an `ability { ... }` takes: hooks (as `Hooks`) that run for the moments
---about a Hero of the ability's profile: it activates, steps, attacks, is hurt, is killed.
---@class AbilityHooks
---@field activation_start (fun(game: Game, moment: UnitMoment))? A unit's activation began (with its first action).
---@field activation_end (fun(game: Game, moment: UnitMoment))? A unit's activation ended.
---@field step (fun(game: Game, moment: StepMoment))? A model entered a square, moving or moved (entering a building is entering its first square): every square of a path. Killing, stunning, knocking down or moving the model stops its move there.
---@field before_attack (fun(game: Game, moment: AttackMoment))? An attack is about to roll (the unit is the attacker's): `game:modify_attack` changes its dice or the target's Defence.
---@field after_damage (fun(game: Game, moment: DamageMoment))? A model lost Health (once per model per attack or effect).
---@field killed (fun(game: Game, moment: KilledMoment))? A model was killed.

---What `on = { ... }` of a `token { ... }` takes: hooks (as `Hooks`) that run for the moments
---about a token of the kind.
---@class TokenHooks
---@field step (fun(game: Game, moment: TokenMoment))? A model entered the token's square (as `step` of the other hooks, once per token there).
---@field interact (fun(game: Game, moment: TokenMoment))? A model took the Interact action on the token's square or next to it (a token with this hook makes the action legal there, for either side).

---What `on = { ... }` of a `card { ... }` takes: hooks (as `Hooks`) that run for every such moment
---while the card is in play: a played card until the end of its round, a Hidden Agenda all game. A
---face-down agenda whose hook does anything the log shows is turned up first (`card_revealed`).
---@class CardHooks
---@field round_start (fun(game: Game, moment: Moment))? A round began (round 1: just before its first action).
---@field round_end (fun(game: Game, moment: Moment))? The Overmind phase ended, and the round with it.
---@field phase_start (fun(game: Game, moment: PhaseMoment))? A side's phase began.
---@field phase_end (fun(game: Game, moment: PhaseMoment))? A side's phase ended.
---@field activation_start (fun(game: Game, moment: UnitMoment))? A unit's activation began (with its first action).
---@field activation_end (fun(game: Game, moment: UnitMoment))? A unit's activation ended.
---@field step (fun(game: Game, moment: StepMoment))? A model entered a square, moving or moved (entering a building is entering its first square): every square of a path. Killing, stunning, knocking down or moving the model stops its move there.
---@field reveal (fun(game: Game, moment: RevealMoment))? A Blip was revealed and its unit placed.
---@field before_attack (fun(game: Game, moment: AttackMoment))? An attack is about to roll (the unit is the attacker's): `game:modify_attack` changes its dice or the target's Defence.
---@field after_damage (fun(game: Game, moment: DamageMoment))? A model lost Health (once per model per attack or effect).
---@field killed (fun(game: Game, moment: KilledMoment))? A model was killed.
---@field victory_check (fun(game: Game, moment: Moment))? After everything that may end the game: `game:declare_winner` ends it.

---What a hook function is told about the moment it runs at: a fresh plain table (`round_start`,
---`round_end`, `victory_check`: only the round). The other moments are kinds of it.
---@class Moment
---@field round integer The round, from 1.

---`phase_start`, `phase_end`: whose phase.
---@class PhaseMoment: Moment
---@field side Side Whose phase.

---`activation_start`, `activation_end`: the unit.
---@class UnitMoment: Moment
---@field unit Unit The unit the moment is about.

---`reveal`: the revealed unit and the Blip's square.
---@class RevealMoment: UnitMoment
---@field at Pos The square.

---`step`: the model that entered a square, its unit, and the square.
---@class StepMoment: UnitMoment
---@field model Model The model (its id instead, a string, if an earlier trigger of the moment took it off the map).
---@field at Pos The square.

---A token's `step` and `interact`: the model, its unit, its square, and the token.
---@class TokenMoment: StepMoment
---@field token Token The token stepped onto or interacted with.

---`before_attack`: the attacking unit, its first attacking model and its square, the attack and
---its target.
---@class AttackMoment: UnitMoment
---@field model Model The model (its id instead, a string, if an earlier trigger of the moment took it off the map).
---@field at Pos The square.
---@field attack AttackKind The attack's kind.
---@field target Model The target model.

---`after_damage`: the model hurt and how much.
---@class DamageMoment: UnitMoment
---@field model Model|string The model hurt: a handle, or its id (a string) when the damage killed it.
---@field at Pos? Its square (nil when it was killed).
---@field amount integer Health lost.
---@field by string? The id of the attacking unit, if a unit's attack did it.

---`killed`: the dead model, where it fell, and who killed it.
---@class KilledMoment: UnitMoment
---@field model string The dead model's id (it is gone from the map).
---@field at Pos Where it fell.
---@field by string? The id of the unit that killed it, if a unit did.

---What a card's `play` is told: a fresh plain table with the card, the round and the card's
---target.
---@class PlayContext: Moment
---@field card string The card's id.
---@field unit Unit? The unit it was played on (`alien` and `hero` cards).
---@field at Pos? The square it was played on (`square` cards).

---A token in play (`game:tokens`, `moment.token`): a fresh plain table, a `Pos` (its square, a
---carrier's last square while carried), so it passes wherever a square is expected.
---@class Token: Pos
---@field id string The token's id (`game:remove_token`, `game:take_token` take it).
---@field kind string Its kind's id (`token { id = ... }`).
---@field class TokenClass? Its kind's class (nil when the kind is not loaded).
---@field carried_by string? The id of the model carrying it, if any.

---A square of the map. Any table with whole-number `x` and `y` is accepted where a square is
---expected.
---@class Pos
---@field x integer Column, 0 at the left.
---@field y integer Row, 0 at the top.

---A reachable square (`Model:reachable`, `Model:reachable_away_from`): a `Pos` with the steps to
---reach it; it passes wherever a `Pos` is expected.
---@class Square: Pos
---@field steps integer Legal steps from the model's square.

---Options of an attack.
---@class AttackOptions
---@field penalty integer? Dice fewer (0 to 20). An attack made as a behaviour never has fewer than the rules' `behaviour_penalty`.

---The Resolution Phase after a campaign's mission, as a rule's `resolution(r)` sees it after the
---core's: change `heroes` and `upgrade_nodes`, and add lines to `log`. What it leaves is checked;
---a value out of range, or a failure, changes nothing.
---@class Resolution
---@field campaign string The campaign's id.
---@field mission string The campaign mission just played.
---@field winner "heroes"|"overmind"|nil? Who won it.
---@field reason string? Why.
---@field rounds integer The round it ended in.
---@field upgrade_nodes integer The Overmind's Upgrade Nodes, 0 to 32.
---@field heroes table<string, ResolutionHero> The squad by hero profile.
---@field log string[] Lines for the report (at most 20 are kept).

---A Hero of the campaign's squad between missions.
---@class ResolutionHero
---@field health integer Health at the next mission's start, 1 to `max_health`.
---@field max_health integer Its profile's Health (read only).
---@field xp integer Experience, 0 to 1000.
---@field level integer Its level for its XP before the hook (read only).
---@field items string[] The Item token kinds it carries into the next mission (at most 6).
