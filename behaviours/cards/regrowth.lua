-- EXAMPLE Mutation card: invented text and numbers, not a printed card (docs/RULES.md §15).
return card {
  id = "regrowth",
  name = "Regrowth",
  text = "Play on a revealed Alien Unit: each of its models heals 2 Health.",
  deck = "mutation",
  target = "alien",
  copies = 1,
  play = function(game, ctx)
    if ctx.unit == nil then
      return
    end
    for _, model in ipairs(ctx.unit:models()) do
      game:heal(model, 2)
    end
  end,
}
