-- EXAMPLE item of the expansion: invented text and numbers, not a printed card.
return token {
  id = "adrenaline",
  name = "Adrenaline Shot",
  class = "item",
  symbol = "!",
  text = "Interact: the shot costs no action and the model's Movement is +1 until the end of "
    .. "its activation. Used up.",
  on = {
    interact = function(game, moment)
      local model, unit, token = moment.model, moment.unit, moment.token
      if model == nil or type(model) == "string" or unit == nil or token == nil then
        return
      end
      game:give_actions(unit, 1)
      game:modify(model, "movement", 1, "activation")
      game:remove_token(token)
    end,
  },
}
