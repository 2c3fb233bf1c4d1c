-- EXAMPLE alien type: invented name and numbers, not a printed card (RULES.md §9).
return alien_type {
  id = "dread",
  name = "Dread",
  unit = { max = 1 },
  movement = 3, melee = 4, defence = 3, health = 5, fear = 3,
  behaviours = { "terrifying_presence", "rush" },
}
