-- EXAMPLE Building Exploration card: invented text and numbers, not a printed card
-- (docs/RULES.md §15.8).
return card {
  id = "armoury",
  name = "Armoury",
  text = "Racks of weapons: the exploring Hero's Shoot is +1 until the end of the round.",
  deck = "exploration",
  copies = 2,
  play = function(game, ctx)
    local hero = ctx.unit and ctx.unit:models()[1]
    if hero ~= nil then
      game:modify(hero, "shoot", 1, "round")
    end
  end,
}
