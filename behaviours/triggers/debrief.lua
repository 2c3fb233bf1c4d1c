-- EXAMPLE campaign rule: invented, not a printed card (docs/RULES.md §16.3). It only has a
-- Resolution Phase hook, so it changes nothing within a mission.
return trigger {
  id = "debrief",
  name = "Debrief",
  text = "Resolution Phase: after a mission the Overmind won, every Hero of the squad gains 1 XP.",
  resolution = function(r)
    if r.winner ~= "overmind" then
      return
    end
    for _, hero in pairs(r.heroes) do
      hero.xp = hero.xp + 1
    end
    r.log[#r.log + 1] = "the squad learns from defeat: 1 XP each"
  end,
}
