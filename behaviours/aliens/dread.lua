-- EXAMPLE alien type: invented name and numbers, not a printed card (docs/RULES.md §9.2).
return alien_type {
  id = "dread",
  name = "Dread",
  unit = { max = 1 },
  movement = 3,
  melee = 4,
  defence = 3,
  health = 5,
  fear = 3,
  behaviours = { "terrifying_presence", "rush" },
}
