-- EXAMPLE hero ability: invented text and numbers, not a printed card (docs/RULES.md §6.8, §14).
-- A Psy ability: its attack is Psychic, so it needs no Line of Sight and the target rolls no
-- Defence; on a face-down Blip it reveals it, and the revealed unit takes the damage (§7.6).

--- Squares away, king-move.
---@param a { x: integer, y: integer }
---@param b { x: integer, y: integer }
---@return integer
local function away(a, b)
  return math.max(math.abs(a.x - b.x), math.abs(a.y - b.y))
end

return ability {
  id = "mind_probe",
  name = "Mind Probe",
  hero = "sable",
  text = "Psy. Once per round, at the end of Sable's activation: a Psychic attack with CV 1 on "
    .. "the closest Alien or Blip within 3 squares (no Line of Sight needed, no defence dice).",
  on = {
    activation_end = function(game, moment)
      local unit = moment.unit
      local me = unit and unit:models()[1]
      if me == nil or game.storage.round == moment.round then
        return
      end
      -- The closest; ties: an Alien before a Blip, then in the order the game lists them.
      ---@type Model|Blip|nil
      local best = nil
      local best_d = 4
      for _, list in ipairs { game:aliens(), game:blips() } do
        for _, target in ipairs(list) do
          local d = away(me, target)
          if d < best_d then
            best, best_d = target, d
          end
        end
      end
      if best ~= nil then
        game.storage.round = moment.round
        game:psychic_attack(unit, best, { cv = 1 })
      end
    end,
  },
}
