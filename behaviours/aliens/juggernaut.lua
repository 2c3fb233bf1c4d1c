-- EXAMPLE alien type: invented name and numbers, not a printed card (docs/RULES.md §9.2).
-- An XXL model (docs/RULES.md §4.4): its base fills 2×2 squares, it moves as a block, ignores
-- the four Special Combat Effects and may Destroy Wall (§5.4, the command `destroy UNIT`).
return alien_type {
  id = "juggernaut",
  name = "Juggernaut",
  xxl = true,
  unit = { max = 1 },
  movement = 4,
  melee = 4,
  defence = 3,
  health = 6,
  fear = 1,
  melee_effects = { "push_back" },
  behaviours = { "rush" },
  -- EXAMPLE ability, invented: BREACH — a Juggernaut that ends its activation against a
  -- building's wall tears it down (Destroy Wall, no action spent).
  on = {
    activation_end = function(_, moment)
      local unit = moment.unit
      if unit == nil then
        return
      end
      for _, m in ipairs(unit:models()) do
        if m.xxl then
          -- Refused (and nothing changes) when no wall qualifies.
          pcall(function()
            unit:destroy_wall()
          end)
          return
        end
      end
    end,
  },
}
