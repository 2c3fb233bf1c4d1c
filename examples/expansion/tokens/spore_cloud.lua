-- EXAMPLE hazard of the expansion: invented text and numbers, not a printed card.
return token {
  id = "spore_cloud",
  name = "Spore Cloud",
  class = "hazard",
  symbol = "%",
  text = "A Hero who enters the cloud takes 1 damage. Lurkers are at home in it.",
  on = {
    step = function(game, moment)
      local model = moment.model
      if model == nil or type(model) == "string" or model.side ~= "heroes" then
        return
      end
      game:log(model.id .. " breathes the spores")
      game:damage(model, 1)
    end,
  },
}
