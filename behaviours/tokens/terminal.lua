-- EXAMPLE Building Exploration event: invented text, not a printed card (docs/RULES.md §14).
return token {
  id = "terminal",
  name = "Security Terminal",
  class = "exploration",
  symbol = "{",
  text = "Interact: the doors cycle; the model gets both its actions back. Used up.",
  on = {
    interact = function(game, moment)
      local unit, token = moment.unit, moment.token
      if unit ~= nil and token ~= nil then
        game:give_actions(unit, 2)
        game:remove_token(token)
      end
    end,
  },
}
