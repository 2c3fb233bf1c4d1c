-- SULK: does nothing, but tells the look-ahead AI it is the best choice (a test of `ai_score`,
-- which runs on a throw-away copy: what it does there never reaches the game).
return behaviour {
  id = "sulk",
  name = "SULK",
  text = "Does nothing.",
  perform = function(unit, game)
    game:log(unit.id .. " sulks")
  end,
  ai_score = function(unit, game)
    game.storage.scored = true
    local hero = game:closest(unit, game:visible_heroes(unit))
    if hero then
      for _, model in ipairs(game:model_order(unit)) do
        model:move_towards(hero, 1)
      end
    end
    return 1000
  end,
}
