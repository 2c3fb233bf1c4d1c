-- EXAMPLE item token: invented text, not a printed card (docs/RULES.md §14, §15.8).
return token {
  id = "crate",
  name = "Supply Crate",
  class = "item",
  symbol = "<",
  text = "Interact: the crate is opened and the model's unit draws an Item card "
    .. "(its effect applies at once).",
  on = {
    interact = function(game, moment)
      local unit, token = moment.unit, moment.token
      if unit == nil or token == nil then
        return
      end
      game:remove_token(token)
      if game:draw_card("item", unit, token) == nil then
        game:log("the crate is empty (this mission deals no Item deck)")
      end
    end,
  },
}
