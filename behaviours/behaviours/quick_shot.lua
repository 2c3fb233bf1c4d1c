-- QUICK SHOT (seed behaviour, docs/RULES.md §8.5). Mirrors core/src/native.rs `QuickShot`.
return behaviour {
  id = "quick_shot",
  name = "QUICK SHOT",
  text = "May make a Shoot attack with one die fewer.",
  perform = function(unit, game)
    local hero = game:choose("Shoot which Hero?", unit:shoot_targets())
    if not hero then
      game:log("no Hero to shoot")
      return
    end
    unit:shoot(hero, { penalty = 1 })
  end,
}
