-- RUSH (seed behaviour, docs/RULES.md §8.5). Mirrors core/src/native.rs `Rush`.
return behaviour {
  id = "rush",
  name = "RUSH",
  text = "Must move 5 Squares towards the closest visible Hero; if this ends in Melee Combat "
    .. "it can make an immediate Melee attack with one die fewer.",
  max_move = 5,
  perform = function(unit, game)
    local hero = game:closest(unit, game:visible_heroes(unit)) -- ties: the Overmind chooses
    if not hero then
      game:log("no visible Hero to rush")
      return
    end
    -- The move is a "must"; a model killed on the way (Overwatch) simply stops.
    for _, model in ipairs(game:model_order(unit)) do
      if model.alive then
        model:move_towards(hero, game.rules.rush_steps)
      end
    end
    -- The Melee attack is a "can": the Overmind may decline it.
    if unit:in_melee() then
      local targets = unit:melee_targets()
      if #targets > 0 and game:confirm("Make the Melee attack?") then
        local target = game:choose("Melee which Hero?", targets)
        if target then
          unit:melee(target, { penalty = 1 })
        end
      end
    end
  end,
}
