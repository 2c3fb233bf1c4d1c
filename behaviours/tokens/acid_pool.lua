-- EXAMPLE hazard: invented text and numbers, not a printed card (docs/RULES.md §14).
return token {
  id = "acid_pool",
  name = "Acid Pool",
  class = "hazard",
  symbol = "~",
  text = "A model that enters this square takes 1 damage.",
  on = {
    step = function(game, moment)
      local model = moment.model
      if model == nil or type(model) == "string" then
        return
      end
      game:log(model.id .. " steps into the acid")
      game:damage(model, 1)
    end,
  },
}
