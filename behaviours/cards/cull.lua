-- EXAMPLE Hidden Agenda: invented text and numbers, not a printed card (docs/RULES.md §15).
-- It wins from its `killed` hook, the moment the count is reached, rather than from a
-- `victory_check` hook: that one would run at every check of the game (after every attack and
-- action), a Lua call each, to read a number that only a kill changes.
return card {
  id = "cull",
  name = "Cull the Herd",
  text = "Hidden Agenda: the Overmind wins as soon as three Heroes have been killed.",
  deck = "hidden_agenda",
  on = {
    killed = function(game, moment)
      if moment.unit == nil or moment.unit.side ~= "heroes" then
        return
      end
      game.storage.kills = (game.storage.kills or 0) + 1
      if game.storage.kills >= 3 then
        game:declare_winner("overmind", "Hidden Agenda Cull the Herd: three Heroes are dead")
      end
    end,
  },
}
