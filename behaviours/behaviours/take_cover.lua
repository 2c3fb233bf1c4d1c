-- TAKE COVER (seed behaviour, docs/RULES.md §8.5). Mirrors core/src/native.rs `TakeCover`.
return behaviour {
  id = "take_cover",
  name = "TAKE COVER",
  text = "May move at once to any Green Square or Building within 5 Squares.",
  max_move = 5,
  perform = function(unit, game)
    if not game:confirm("Take cover?") then return end
    local steps = game.rules.take_cover_steps
    for _, model in ipairs(game:model_order(unit)) do
      local cover = {}
      for _, square in ipairs(model:reachable()) do
        if game:terrain(square) == "green" or game:in_building(square) then
          cover[#cover + 1] = square
        end
      end
      if #cover == 0 then
        game:log(model.id .. ": no Green Square or Building within " .. steps)
      else
        model:move_towards(cover, steps)
      end
    end
  end,
}
