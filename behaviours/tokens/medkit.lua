-- EXAMPLE item: invented text and numbers, not a printed card (docs/RULES.md §14).
return token {
  id = "medkit",
  name = "Medkit",
  class = "item",
  symbol = "$",
  text = "Interact: the model heals 3 Health; the medkit is used up.",
  on = {
    interact = function(game, moment)
      local model, token = moment.model, moment.token
      if model == nil or type(model) == "string" or token == nil then
        return
      end
      local healed = game:heal(model, 3)
      game:log(model.id .. " uses the medkit: " .. healed .. " Health back")
      game:remove_token(token)
    end,
  },
}
