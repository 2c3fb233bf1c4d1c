-- EXAMPLE alien type: invented name and numbers, not a printed card (docs/RULES.md §9.2).
return alien_type {
  id = "spitter",
  name = "Spitter",
  unit = { max = 2 },
  movement = 4,
  melee = 1,
  defence = 2,
  health = 2,
  shoot = { short = { range = 4, cv = 3 }, long = { range = 8, cv = 2 } },
  behaviours = { "quick_shot", "take_cover" },
}
