-- EXAMPLE Hidden Agenda: invented text and numbers, not a printed card (docs/RULES.md §15).
return card {
  id = "cull",
  name = "Cull the Herd",
  text = "Hidden Agenda: the Overmind wins as soon as three Heroes have been killed.",
  deck = "hidden_agenda",
  on = {
    killed = function(game, moment)
      if moment.unit ~= nil and moment.unit.side == "heroes" then
        game.storage.kills = (game.storage.kills or 0) + 1
      end
    end,
    victory_check = function(game)
      if (game.storage.kills or 0) >= 3 then
        game:declare_winner("overmind", "Hidden Agenda Cull the Herd: three Heroes are dead")
      end
    end,
  },
}
