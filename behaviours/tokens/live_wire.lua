-- EXAMPLE hazard: invented text, not a printed card (docs/RULES.md §14).
return token {
  id = "live_wire",
  name = "Live Wire",
  class = "hazard",
  symbol = ";",
  text = "A model that enters this square is Knocked Down (its move ends there).",
  on = {
    step = function(game, moment)
      local model = moment.model
      if model ~= nil then
        game:set_status(model, "knocked_down", true)
      end
    end,
  },
}
