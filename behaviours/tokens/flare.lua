-- EXAMPLE item: invented text and numbers, not a printed card (docs/RULES.md §14).
return token {
  id = "flare",
  name = "Flare",
  class = "item",
  symbol = ")",
  text = "Interact to light it: the model's Movement is +2 until the end of the round. Used up.",
  on = {
    interact = function(game, moment)
      local model, token = moment.model, moment.token
      if model ~= nil and token ~= nil then
        game:modify(model, "movement", 2, "round")
        game:remove_token(token)
      end
    end,
  },
}
