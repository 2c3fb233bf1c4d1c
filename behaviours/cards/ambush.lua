-- EXAMPLE Building Exploration card: invented text, not a printed card (docs/RULES.md §15.8).
-- Drawn when a Hero explores a room (tokens/unexplored.lua).
return card {
  id = "ambush",
  name = "Ambush",
  text = "Something waited in the dark: the exploring Hero is Knocked Down.",
  deck = "exploration",
  play = function(game, ctx)
    local hero = ctx.unit and ctx.unit:models()[1]
    if hero ~= nil then
      game:set_status(hero, "knocked_down", true)
    end
  end,
}
