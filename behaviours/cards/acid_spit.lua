-- EXAMPLE Mutation card: invented text and numbers, not a printed card (docs/RULES.md §15).
return card {
  id = "acid_spit",
  name = "Acid Spit",
  text = "Play on a Hero that a revealed Alien model sees: the Hero loses 1 Health.",
  deck = "mutation",
  target = "hero",
  copies = 2,
  play = function(game, ctx)
    local hero = ctx.unit and ctx.unit:models()[1]
    if hero == nil then
      return
    end
    for _, alien in ipairs(game:aliens()) do
      if game:los(alien, hero) then
        game:damage(hero, 1)
        return
      end
    end
    game:log("Acid Spit: no Alien model sees " .. hero.id .. ", so nothing happens")
  end,
}
