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
    for _, model in ipairs(game:model_order(unit)) do
      model:move_towards(hero, game.rules.rush_steps)
    end
    if unit:in_melee() then
      local target = game:choose("Melee which Hero?", unit:melee_targets())
      if target then unit:melee(target, { penalty = 1 }) end
    end
  end,
}
