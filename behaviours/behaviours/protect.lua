-- PROTECT (seed behaviour, docs/RULES.md §8.5). Mirrors core/src/native.rs `Protect`.
return behaviour {
  id = "protect",
  name = "PROTECT",
  text = "Moves at once towards the nearest other Alien Unit and stops once Adjacent to it.",
  perform = function(unit, game)
    local others = {}
    for _, model in ipairs(game:aliens()) do
      if model.unit ~= unit.id then
        others[#others + 1] = model
      end
    end
    local nearest = game:closest(unit, others) -- by legal path; ties: the Overmind chooses
    if not nearest then
      game:log("no other Alien Unit to protect")
      return
    end
    local guarded_unit = game:unit(nearest.unit)
    if not guarded_unit then
      return
    end
    local guarded = guarded_unit:models()
    for _, model in ipairs(game:model_order(unit)) do
      if model.alive then -- a model killed on the way (Overwatch) moves no more
        model:move_towards(guarded, model:move_left()) -- stops once adjacent
      end
    end
  end,
}
