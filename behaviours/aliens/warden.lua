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
}
