-- EXAMPLE hero ability: invented text and numbers, not a printed card (docs/RULES.md §14).
return ability {
  id = "field_dressing",
  name = "Field Dressing",
  hero = "hollis",
  text = "Once per round, at the end of Hollis's activation, one wounded Hero next to her heals 1.",
  on = {
    activation_end = function(game, moment)
      if game.storage.round == moment.round then
        return
      end
      local unit = moment.unit
      local me = unit and unit:models()[1]
      if me == nil then
        return
      end
      for _, hero in ipairs(game:heroes()) do
        -- Only a Hero next to her can be healed: look at the others' wounds only then.
        if hero.id ~= me.id and game:distance(hero, me) == 1 then
          local of = game:unit(hero.unit)
          local full = of and of.type and of.type.health or hero.health
          if hero.health < full then
            game:heal(hero, 1)
            game.storage.round = moment.round
            return
          end
        end
      end
    end,
  },
}
