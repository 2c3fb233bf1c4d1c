-- EXAMPLE alien type: invented name and numbers, not a printed card (docs/RULES.md §9.2).
return alien_type {
  id = "warden",
  name = "Warden",
  unit = { max = 2 },
  movement = 4,
  melee = 3,
  defence = 3,
  health = 3,
  melee_effects = { "knock_down" },
  behaviours = { "protect" },
  -- EXAMPLE ability, invented: a Warden no Hero sees regenerates.
  on = {
    activation_start = function(game, moment)
      local unit = moment.unit
      local full = unit and unit.type and unit.type.health
      if unit == nil or full == nil then
        return
      end
      for _, m in ipairs(unit:models()) do
        -- The first wounded model heals, unless a Hero sees the unit (asked only then).
        if m.health < full then
          if #game:heroes_seeing(unit) == 0 then
            game:heal(m, 1)
          end
          return
        end
      end
    end,
  },
}
