-- EXAMPLE Item card: invented text and numbers, not a printed card (docs/RULES.md §15.8).
-- Drawn when a Hero searches a Supply Crate (tokens/crate.lua).
return card {
  id = "stim_pack",
  name = "Stim Pack",
  text = "The Hero who found it heals 2 Health and moves +1 until the end of the round.",
  deck = "item",
  copies = 2,
  play = function(game, ctx)
    local hero = ctx.unit and ctx.unit:models()[1]
    if hero == nil then
      return
    end
    game:heal(hero, 2)
    game:modify(hero, "movement", 1, "round")
  end,
}
