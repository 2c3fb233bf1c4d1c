-- EXAMPLE alien type for a test: invented numbers, not a printed card.
return alien_type {
  id = "sulker",
  name = "Sulker",
  unit = { max = 1 },
  movement = 6,
  melee = 3,
  defence = 2,
  health = 3,
  behaviours = { "charge", "take_cover", "sulk" },
}
