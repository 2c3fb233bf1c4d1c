-- EXAMPLE Building Exploration event: invented text and numbers, not a printed card.
return token {
  id = "supply_cache",
  name = "Supply Cache",
  class = "exploration",
  symbol = "[",
  text = "Interact: the model heals 2 Health, and so does every Hero next to it.",
  on = {
    interact = function(game, moment)
      local model, token = moment.model, moment.token
      if model == nil or type(model) == "string" or token == nil then
        return
      end
      game:heal(model, 2)
      for _, hero in ipairs(game:heroes()) do
        if hero.id ~= model.id and game:distance(hero, model) == 1 then
          game:heal(hero, 2)
        end
      end
      game:remove_token(token)
    end,
  },
}
