-- EXAMPLE Mutation card: invented text and numbers, not a printed card (docs/RULES.md §15).
return card {
  id = "swarm",
  name = "Swarm",
  text = "A new Alien Unit of one Stalker enters on a free yellow square that no Hero sees "
    .. "(the first such square from the top-left); none free, nothing happens.",
  deck = "mutation",
  copies = 1,
  play = function(game)
    local heroes = game:heroes()
    for _, square in ipairs(game:squares("yellow")) do
      local seen = false
      for _, hero in ipairs(heroes) do
        if game:distance(hero, square) == 0 or game:los(hero, square) then
          seen = true
          break
        end
      end
      if not seen and pcall(game.spawn_unit, game, "stalker", square, 1) then
        return
      end
    end
    game:log("Swarm: no free yellow square out of the Heroes' sight")
  end,
}
