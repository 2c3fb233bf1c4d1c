-- EXAMPLE alien type: invented name and numbers, not a printed card (docs/RULES.md §9.2).
return alien_type {
  id = "stalker",
  name = "Stalker",
  unit = { max = 3 },
  movement = 6,
  melee = 3,
  defence = 2,
  health = 2,
  shoot = { short = { range = 2, cv = 2 }, long = { range = 4, cv = 1 } },
  behaviours = { "rush", "quick_shot" },
}
