-- EXAMPLE Mutation card: invented text and numbers, not a printed card (docs/RULES.md §15).
return card {
  id = "frenzy",
  name = "Frenzy",
  text = "Play on a revealed Alien Unit: its models have Melee +1 and Movement +1 "
    .. "until the end of the round.",
  deck = "mutation",
  target = "alien",
  copies = 2,
  play = function(game, ctx)
    if ctx.unit == nil then
      return
    end
    for _, model in ipairs(ctx.unit:models()) do
      game:modify(model, "melee", 1, "round")
      game:modify(model, "movement", 1, "round")
    end
  end,
}
