-- EXAMPLE Building Exploration token: invented text, not a printed card (docs/RULES.md §14,
-- §15.8).
return token {
  id = "unexplored",
  name = "Unexplored Room",
  class = "exploration",
  symbol = ">",
  text = "Interact: the room is explored and the model's unit draws a Building Exploration "
    .. "card (its effect applies at once).",
  on = {
    interact = function(game, moment)
      local unit, token = moment.unit, moment.token
      if unit == nil or token == nil then
        return
      end
      game:remove_token(token)
      if game:draw_card("exploration", unit, token) == nil then
        game:log("nothing here (this mission deals no Exploration deck)")
      end
    end,
  },
}
