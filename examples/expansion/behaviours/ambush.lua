-- AMBUSH (example expansion behaviour): lurkers strike the Heroes who come close.
return behaviour {
  id = "ambush",
  name = "AMBUSH",
  text = "Every model that can reach a square next to a Hero it sees within 2 squares moves "
    .. "there; then the unit may make a Melee attack with one die fewer.",
  max_move = 2,
  perform = function(unit, game)
    local heroes = game:visible_heroes(unit)
    if #heroes == 0 then
      game:log("no visible Hero to ambush")
      return
    end
    for _, model in ipairs(game:model_order(unit)) do
      -- Only a model that can end next to a Hero springs the ambush; the others wait.
      local reach = false
      for _, hero in ipairs(heroes) do
        local steps = game:steps_to_adjacent(model, hero)
        if steps and steps <= model:move_left() then
          reach = true
        end
      end
      if reach then
        model:move_towards(heroes, model:move_left())
      end
    end
    if unit:in_melee() then
      local target = game:choose("Ambush which Hero?", unit:melee_targets())
      if target then
        unit:melee(target, { penalty = 1 })
      end
    else
      game:log("no Hero within reach of the ambush")
    end
  end,
}
