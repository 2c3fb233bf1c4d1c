-- EXAMPLE alien type of the example expansion: invented name and numbers.
return alien_type {
  id = "lurker",
  name = "Lurker",
  unit = { max = 2 },
  movement = 4,
  melee = 4,
  defence = 2,
  health = 3,
  behaviours = { "ambush" },
}
