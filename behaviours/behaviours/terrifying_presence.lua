-- TERRIFYING PRESENCE (seed behaviour, docs/RULES.md §8.5). Mirrors core/src/native.rs
-- `TerrifyingPresence`.
return behaviour {
  id = "terrifying_presence",
  name = "TERRIFYING PRESENCE",
  text = "Makes a Fear Attack against every Hero that has this unit in Line of Sight.",
  perform = function(unit, game)
    for _, hero in ipairs(game:heroes_seeing(unit)) do
      unit:fear(hero)
    end
  end,
}
