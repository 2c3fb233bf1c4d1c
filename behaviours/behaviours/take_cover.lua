-- TAKE COVER (seed behaviour, docs/RULES.md §8.5). Mirrors core/src/native.rs `TakeCover`.
return behaviour {
  id = "take_cover",
  name = "TAKE COVER",
  text = "May move at once to any Green Square or Building within 5 Squares.",
  max_move = 5,
  perform = function(unit, game)
    local steps = game.rules.take_cover_steps
    -- Model by model: every Green Square or Building square it can reach within `steps`
    -- (nearest first), or staying; the Overmind picks.
    for _, model in ipairs(game:model_order(unit)) do
      if model.alive then
        local options = {}
        for _, square in ipairs(model:reachable()) do
          if
            square.steps > 0
            and square.steps <= steps
            and (game:terrain(square) == "green" or game:in_building(square))
          then
            options[#options + 1] = square
          end
        end
        if #options == 0 then
          game:log(model.id .. ": no Green Square or Building within " .. steps)
        else
          options[#options + 1] = "stay"
          local choice = game:choose("Where does " .. model.id .. " take cover?", options)
          if choice ~= nil and choice ~= "stay" then
            ---@cast choice Square
            model:move_to(choice)
          end
        end
      end
    end
  end,
}
