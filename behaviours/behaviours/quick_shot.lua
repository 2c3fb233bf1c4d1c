-- QUICK SHOT (seed behaviour, docs/RULES.md §8.5). Mirrors core/src/native.rs `QuickShot`.
return behaviour {
  id = "quick_shot",
  name = "QUICK SHOT",
  text = "May make a Shoot attack with one die fewer.",
  perform = function(unit, game)
    local targets = unit:shoot_targets()
    if #targets == 0 then
      game:log("no Hero to shoot")
      return
    end
    -- "may make a Shoot attack": the Overmind may decline.
    if not game:confirm("Make the Quick Shot?") then
      return
    end
    local hero = game:choose("Shoot which Hero?", targets)
    if hero then
      unit:shoot(hero, { penalty = 1 })
    end
  end,
}
