-- EXAMPLE item: invented text and numbers, not a printed card (docs/RULES.md §14).
return token {
  id = "spanner",
  name = "Spanner",
  class = "item",
  symbol = "^",
  text = "Interact to pick it up: its carrier's Melee is +1 until the end of the round.",
  on = {
    interact = function(game, moment)
      local model, token = moment.model, moment.token
      if model ~= nil and token ~= nil then
        game:take_token(model, token)
        game:modify(model, "melee", 1, "round")
      end
    end,
  },
}
